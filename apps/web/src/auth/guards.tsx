import { useState } from "react";
import { Navigate, Outlet, useLocation } from "react-router";
import { Button } from "../components/button.tsx";
import { PageLoading } from "../components/page-loading.tsx";
import { useT } from "../i18n/intl.tsx";
import { loginUrlFor } from "./next.ts";
import { useSession } from "./session.tsx";

/**
 * App pages need a signed-in user: a signed-out visit goes to /login and comes back after
 * signing in (the destination rides in `?next=`). Whether the role may use the page is checked
 * by the layout, which shows a "not allowed" screen inside the app frame.
 */
export function RequireSignIn() {
  const { status, endedBy } = useSession();
  const location = useLocation();
  if (status === "loading") return <PageLoading />;
  if (status === "unreachable") return <Unreachable />;
  if (status === "signedOut") {
    // Logout goes to /login itself; a session that ended otherwise comes back here after login.
    if (endedBy === "logout") return <Navigate to="/login" replace />;
    return (
      <Navigate to={loginUrlFor(location.pathname + location.search + location.hash)} replace />
    );
  }
  return <Outlet />;
}

/** The account could not be loaded (not a sign-out): say so, keep trying, offer Retry. */
function Unreachable() {
  const { refresh } = useSession();
  const [busy, setBusy] = useState(false);
  const { t } = useT();
  return (
    <div className="stack narrow page-problem" role="alert">
      <h1>{t("common.unreachable.title")}</h1>
      <p>{t("common.unreachable.text")}</p>
      <p className="actions">
        <Button
          loading={busy}
          onClick={() => {
            setBusy(true);
            refresh()
              .catch(() => undefined)
              .finally(() => setBusy(false));
          }}
        >
          {t("common.unreachable.retry")}
        </Button>
      </p>
    </div>
  );
}
