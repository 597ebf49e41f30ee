import { canOpenPage, sidebarFor } from "@gradecast/contract/roles";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { Link, NavLink, Outlet, useLocation } from "react-router";
import { useSession } from "../auth/session.tsx";
import { useLogout } from "../auth/use-logout.ts";
import { RouteErrorBoundary } from "../components/route-error-boundary.tsx";
import { SkipLink } from "../components/skip-link.tsx";
import { Spinner } from "../components/spinner.tsx";
import { useFocusMainOnNavigate } from "../components/use-focus-main.ts";
import { VerifyBanner } from "../components/verify-banner.tsx";
import { useT } from "../i18n/intl.tsx";

const NotAllowed = lazy(() => import("../components/not-allowed.tsx"));
const PendingCount = lazy(() => import("../features/admin/pending-count.tsx"));
const DeletionCancelled = lazy(() => import("../features/privacy/deletion-cancelled.tsx"));
const NotificationBell = lazy(() => import("../features/notifications/bell.tsx"));

// The sidebar's items by path (the contract's English labels), written out for the catalogue check.
const sidebarKeys: Readonly<Record<string, string>> = {
  "/dashboard": "frame.nav.dashboard",
  "/profile": "frame.nav.profile",
  "/student-input": "frame.nav.studentInput",
  "/prediction": "frame.nav.prediction",
  "/teacher-input": "frame.nav.teacherInput",
  "/student-dashboard": "frame.nav.studentDashboard",
  "/teacher-dashboard": "frame.nav.teacherDashboard",
  "/classes": "frame.nav.classes",
  "/evaluation": "frame.nav.evaluation",
  "/settings": "frame.nav.settings",
  "/admin/users": "frame.nav.users",
  "/admin/audit": "frame.nav.audit",
  "/admin/data-protection": "frame.nav.dataProtection",
  "/admin/model": "frame.nav.model",
  "/admin/oneroster": "frame.nav.oneroster",
};
const roleKeys = {
  student: "frame.role.student",
  teacher: "frame.role.teacher",
  admin: "frame.role.admin",
} as const;

/**
 * The frame of every app page: the product's sidebar filtered for the role by the
 * contract's rules (a menu button shows it on a phone), the verification banner, and the page.
 * A page the role may not use shows the "not allowed" screen instead.
 */
export function AppLayout() {
  const { user } = useSession();
  const logout = useLogout();
  const { pathname } = useLocation();
  const { intl, t } = useT();
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  useFocusMainOnNavigate();

  // biome-ignore lint/correctness/useExhaustiveDependencies: close the menu on every navigation
  useEffect(() => {
    setMenuOpen(false);
  }, [pathname]);

  // Escape closes the phone menu, as it would a popup, and puts focus back on its button.
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || event.defaultPrevented) return;
      setMenuOpen(false);
      menuButton.current?.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [menuOpen]);

  if (!user) return null;
  const items = sidebarFor(user.role);
  const allowed = canOpenPage(user.role, pathname);

  return (
    <div className="app-shell">
      <SkipLink />
      <header className="app-topbar">
        <Link to="/Home" className="brand">
          <span className="brand-mark" aria-hidden="true" />
          Gradecast
        </Link>
        <div className="app-topbar-end">
          {/* Help from every signed-in page (issue 28): classes, predictions, privacy, passwords. */}
          {/* Issue 32: the notifications, with the number unread (verified accounts). */}
          {user.emailVerified ? (
            <Suspense fallback={null}>
              <NotificationBell />
            </Suspense>
          ) : null}
          <Link to="/help" className="topbar-link">
            {t("frame.help")}
          </Link>
          <button
            ref={menuButton}
            type="button"
            className="btn btn-ghost menu-button"
            aria-expanded={menuOpen}
            aria-controls="sidebar"
            onClick={() => setMenuOpen((open) => !open)}
          >
            {menuOpen ? t("frame.closeMenu") : t("frame.menu")}
          </button>
        </div>
      </header>
      <nav
        id="sidebar"
        className={menuOpen ? "sidebar sidebar-open" : "sidebar"}
        aria-label={t("frame.main")}
      >
        <ul className="sidebar-list">
          {items.map((item) => (
            <li key={item.path}>
              <NavLink
                to={item.path}
                className="sidebar-link"
                caseSensitive
                end
                onClick={() => setMenuOpen(false)}
              >
                {sidebarKeys[item.path] ? t(sidebarKeys[item.path] as string) : item.label}
                {item.path === "/admin/users" && user.role === "admin" && user.emailVerified ? (
                  <Suspense fallback={null}>
                    <PendingCount />
                  </Suspense>
                ) : null}
              </NavLink>
            </li>
          ))}
          <li>
            <button type="button" className="sidebar-link sidebar-logout" onClick={logout}>
              {t("frame.logout")}
            </button>
          </li>
        </ul>
        <p className="sidebar-user">
          {intl.formatMessage(
            { id: "frame.loggedInAs" },
            { name: user.name, strong: (chunks) => <strong>{chunks}</strong> },
          )}
          <span className="role-badge">{t(roleKeys[user.role])}</span>
        </p>
      </nav>
      <main id="main" className="app-main" tabIndex={-1}>
        <VerifyBanner />
        <Suspense fallback={null}>
          <DeletionCancelled />
        </Suspense>
        <RouteErrorBoundary>
          <Suspense fallback={<Spinner label={t("frame.loading")} className="spinner-page" />}>
            {allowed ? <Outlet /> : <NotAllowed />}
          </Suspense>
        </RouteErrorBoundary>
      </main>
    </div>
  );
}
