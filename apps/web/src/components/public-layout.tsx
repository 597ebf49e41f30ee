import { Suspense } from "react";
import { Link, NavLink, Outlet } from "react-router";
import { useSession } from "../auth/session.tsx";
import { useT } from "../i18n/intl.tsx";
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
  const { t } = useT();
  return (
    <div className="public-shell">
      <SkipLink />
      <header className="public-header">
        <Link to={signedIn ? "/Home" : "/login"} className="brand">
          <span className="brand-mark" aria-hidden="true" />
          Gradecast
        </Link>
        <nav aria-label={t("public.nav")} className="public-nav">
          <NavLink to="/about">{t("public.about")}</NavLink>
          <NavLink to="/help">{t("public.help")}</NavLink>
          <NavLink to="/contact">{t("public.contact")}</NavLink>
          {signedIn ? (
            <NavLink to="/Home">{t("public.home")}</NavLink>
          ) : (
            <NavLink to="/login">{t("public.login")}</NavLink>
          )}
        </nav>
      </header>
      <main id="main" className="public-main" tabIndex={-1}>
        <RouteErrorBoundary>
          <Suspense fallback={<Spinner label={t("public.loading")} className="spinner-page" />}>
            <Outlet />
          </Suspense>
        </RouteErrorBoundary>
      </main>
      <footer className="public-footer">
        <p>
          {t("public.footer")} <Link to="/privacy">{t("public.privacy")}</Link>
        </p>
        <LanguageChoice className="public-language" />
      </footer>
    </div>
  );
}
