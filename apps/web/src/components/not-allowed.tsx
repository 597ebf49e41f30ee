import { useT } from "../i18n/intl.tsx";
import { ButtonLink } from "./button.tsx";
import { PageHeader } from "./page-header.tsx";

/** A page the signed-in role may not use (packages/contract roles.ts). */
export default function NotAllowed() {
  const { t } = useT();
  return (
    <div className="stack">
      <PageHeader title={t("common.notAllowed.title")} description={t("messages.notAllowed")} />
      <p>{t("common.notAllowed.text")}</p>
      <p>
        <ButtonLink to="/Home">{t("common.home")}</ButtonLink>
      </p>
    </div>
  );
}
