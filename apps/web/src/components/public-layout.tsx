import { Suspense } from "react";
import { Link, NavLink, Outlet } from "react-router";
import { useSession } from "../auth/session.tsx";
import { LanguageChoice } from "./language-choice.tsx";
import { RouteErrorBoundary } from "./route-error-boundary.tsx";
import { SkipLink } from "./skip-link.tsx";
import { Spinner } from "./spinner.tsx";
import { useFocusMainOnNavigate } from "./use-focus-main.ts";

/** Sign-in screens and the informational pages: a slim header, the page, a footer. */
export function PublicLayout() {
  const { status } = useSession();
  const signedIn = status === "signedIn";
  useFocusMainOnNavigate();
  return (
    <div className="public-shell">
      <SkipLink />
      <header className="public-header">
        <Link to={signedIn ? "/Home" : "/login"} className="brand">
          <span className="brand-mark" aria-hidden="true" />
          Gradecast
        </Link>
        <nav aria-label="Site" className="public-nav">
          <NavLink to="/about">About Us</NavLink>
          <NavLink to="/help">Help</NavLink>
          <NavLink to="/contact">Contact</NavLink>
          {signedIn ? <NavLink to="/Home">Home</NavLink> : <NavLink to="/login">Log in</NavLink>}
        </nav>
      </header>
      <main id="main" className="public-main" tabIndex={-1}>
        <RouteErrorBoundary>
          <Suspense fallback={<Spinner label="Loading..." className="spinner-page" />}>
            <Outlet />
          </Suspense>
        </RouteErrorBoundary>
      </main>
      <footer className="public-footer">
        <p>
          Gradecast, student performance analytics. The grade model learns from the UCI Student
          Performance data (Cortez and Silva, 2008, CC BY 4.0).{" "}
          <Link to="/privacy">Privacy notice</Link>
        </p>
        <LanguageChoice className="public-language" />
      </footer>
    </div>
  );
}
