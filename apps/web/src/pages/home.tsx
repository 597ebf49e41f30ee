import { NavLink } from "react-router";
import { useSession } from "../auth/session.tsx";
import { useLogout } from "../auth/use-logout.ts";
import { ButtonLink } from "../components/button.tsx";
import { useDocumentTitle } from "../components/page-header.tsx";
import { SkipLink } from "../components/skip-link.tsx";
import { useFocusMainOnNavigate } from "../components/use-focus-main.ts";
import { VerifyBanner } from "../components/verify-banner.tsx";
import DeletionCancelled from "../features/privacy/deletion-cancelled.tsx";
import { useT } from "../i18n/intl.tsx";

/** The landing page after login: the nav bar and Get Started. */
export default function Home() {
  const { user } = useSession();
  const logout = useLogout();
  const { intl, t } = useT();
  useDocumentTitle(t("frame.home.home"));
  useFocusMainOnNavigate();
  return (
    <div className="home-shell">
      <SkipLink />
      <header className="home-header">
        <span className="brand">
          <span className="brand-mark" aria-hidden="true" />
          Gradecast
        </span>
        <nav aria-label={t("frame.main")} className="home-nav">
          <NavLink to="/Home" caseSensitive end>
            {t("frame.home.home")}
          </NavLink>
          <NavLink to="/dashboard">{t("frame.nav.dashboard")}</NavLink>
          <NavLink to="/about">{t("frame.home.about")}</NavLink>
          <NavLink to="/contact">{t("frame.home.contact")}</NavLink>
          <button type="button" className="nav-button" onClick={logout}>
            {t("frame.logout")}
          </button>
        </nav>
      </header>
      <main id="main" className="home-main" tabIndex={-1}>
        <VerifyBanner />
        <DeletionCancelled />
        <section className="hero">
          <h1 className="hero-title">{t("frame.home.title")}</h1>
          <p className="hero-text">
            {user
              ? `${intl.formatMessage({ id: "frame.home.welcome" }, { name: user.name })} `
              : ""}
            {t("frame.home.text")}
          </p>
          <ButtonLink to="/dashboard" className="btn-large">
            {t("frame.home.start")}
          </ButtonLink>
        </section>
      </main>
    </div>
  );
}
