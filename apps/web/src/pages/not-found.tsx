import { appPages } from "@gradecast/contract/roles";
import { Navigate, useLocation } from "react-router";
import { ButtonLink } from "../components/button.tsx";
import { PageHeader } from "../components/page-header.tsx";

const knownPaths = [
  ...appPages.map((p) => p.path),
  "/login",
  "/register",
  "/forgot-password",
  "/reset-password",
  "/about",
  "/help",
  "/contact",
];

/**
 * Any address that is not a page. Routes are case-sensitive (/Home and /Verify have capitals), so an
 * address that differs only in case or a trailing slash, such as a typed /home, is taken there.
 */
export default function NotFound() {
  const { pathname, search, hash } = useLocation();
  const page = knownPaths.find(
    (p) => p !== pathname && p.toLowerCase() === pathname.replace(/\/+$/, "").toLowerCase(),
  );
  if (page) return <Navigate to={`${page}${search}${hash}`} replace />;
  return (
    <div className="stack narrow">
      <PageHeader title="Page not found" description="There is no page at this address." />
      <p>
        <code className="path">{pathname}</code> does not exist. Check the address, or start again
        from the home page.
      </p>
      <p className="actions">
        <ButtonLink to="/Home">Go to Home</ButtonLink>
        <ButtonLink to="/help" variant="secondary">
          Get help
        </ButtonLink>
      </p>
    </div>
  );
}
