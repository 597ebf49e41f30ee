import { Link, useLocation } from "react-router";
import { useSession } from "../auth/session.tsx";

/** On every app page while the user's email address is not verified. */
export function VerifyBanner() {
  const { user } = useSession();
  const { pathname } = useLocation();
  if (!user || user.emailVerified || pathname === "/Verify") return null;
  return (
    <div className="verify-banner" role="status">
      <p>
        Your email address is not verified yet. <Link to="/Verify">Verify your email</Link> with the
        code we sent to {user.email}.
      </p>
    </div>
  );
}
