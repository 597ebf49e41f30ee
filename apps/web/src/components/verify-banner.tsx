import type { ReactNode } from "react";
import { Link, useLocation } from "react-router";
import { useSession } from "../auth/session.tsx";
import { useIntl } from "../i18n/intl.tsx";

/** On every app page while the user's email address is not verified. */
export function VerifyBanner() {
  const { user } = useSession();
  const { pathname } = useLocation();
  const intl = useIntl();
  if (!user || user.emailVerified || pathname === "/Verify") return null;
  return (
    <div className="verify-banner" role="status">
      <p>
        {intl.formatMessage(
          { id: "common.verifyBanner" },
          { email: user.email, link: (chunks: ReactNode[]) => <Link to="/Verify">{chunks}</Link> },
        )}
      </p>
    </div>
  );
}
