import { appPages } from "@gradecast/contract/roles";
import type { ReactNode } from "react";
import { Navigate, useLocation } from "react-router";
import { ButtonLink } from "../components/button.tsx";
import { PageHeader } from "../components/page-header.tsx";
import { useT } from "../i18n/intl.tsx";

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
  const { intl, t } = useT();
  const page = knownPaths.find(
    (p) => p !== pathname && p.toLowerCase() === pathname.replace(/\/+$/, "").toLowerCase(),
  );
  if (page) return <Navigate to={`${page}${search}${hash}`} replace />;
  return (
    <div className="stack narrow">
      <PageHeader title={t("notFound.title")} description={t("notFound.description")} />
      <p>
        {intl.formatMessage(
          { id: "notFound.text" },
          {
            path: pathname,
            code: (chunks: ReactNode[]) => <code className="path">{chunks}</code>,
          },
        )}
      </p>
      <p className="actions">
        <ButtonLink to="/Home">{t("notFound.home")}</ButtonLink>
        <ButtonLink to="/help" variant="secondary">
          {t("notFound.help")}
        </ButtonLink>
      </p>
    </div>
  );
}
