import { NavLink } from "react-router";
import { useSession } from "../auth/session.tsx";
import { useLogout } from "../auth/use-logout.ts";
import { ButtonLink } from "../components/button.tsx";
import { useDocumentTitle } from "../components/page-header.tsx";
import { SkipLink } from "../components/skip-link.tsx";
import { useFocusMainOnNavigate } from "../components/use-focus-main.ts";
import { VerifyBanner } from "../components/verify-banner.tsx";
import DeletionCancelled from "../features/privacy/deletion-cancelled.tsx";

/** The landing page after login: the nav bar and Get Started. */
export default function Home() {
  const { user } = useSession();
  const logout = useLogout();
  useDocumentTitle("Home");
  useFocusMainOnNavigate();
  return (
    <div className="home-shell">
      <SkipLink />
      <header className="home-header">
        <span className="brand">
          <span className="brand-mark" aria-hidden="true" />
          Gradecast
        </span>
        <nav aria-label="Main" className="home-nav">
          <NavLink to="/Home" caseSensitive end>
            Home
          </NavLink>
          <NavLink to="/dashboard">Dashboard</NavLink>
          <NavLink to="/about">About Us</NavLink>
          <NavLink to="/contact">Contact Us</NavLink>
          <button type="button" className="nav-button" onClick={logout}>
            Logout
          </button>
        </nav>
      </header>
      <main id="main" className="home-main" tabIndex={-1}>
        <VerifyBanner />
        <DeletionCancelled />
        <section className="hero">
          <h1 className="hero-title">See how learning is going, early enough to act.</h1>
          <p className="hero-text">
            {user ? `Welcome, ${user.name}. ` : ""}
            Gradecast brings teacher reports, a student questionnaire with a predicted final score,
            and an analytics report together in one place.
          </p>
          <ButtonLink to="/dashboard" className="btn-large">
            Get Started
          </ButtonLink>
        </section>
      </main>
    </div>
  );
}
