import { appPages } from "@gradecast/contract/roles";
import { Link, useLocation } from "react-router";
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

/** Any address that is not a page. Routes are case-sensitive, so /home suggests /Home. */
export default function NotFound() {
  const { pathname } = useLocation();
  const suggestion = knownPaths.find(
    (p) => p !== pathname && p.toLowerCase() === pathname.replace(/\/+$/, "").toLowerCase(),
  );
  return (
    <div className="stack narrow">
      <PageHeader title="Page not found" description="There is no page at this address." />
      <p>
        <code className="path">{pathname}</code> does not exist. Check the address, or start again
        from the home page.
      </p>
      {suggestion ? (
        <p>
          Did you mean <Link to={suggestion}>{suggestion}</Link>?
        </p>
      ) : null}
      <p className="actions">
        <ButtonLink to="/Home">Go to Home</ButtonLink>
        <ButtonLink to="/help" variant="secondary">
          Get help
        </ButtonLink>
      </p>
    </div>
  );
}
