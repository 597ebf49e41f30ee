import type { ReactNode } from "react";
import { Card } from "../components/card.tsx";
import { PageHeader } from "../components/page-header.tsx";
import { useT } from "../i18n/intl.tsx";

const b = (chunks: ReactNode[]) => <strong>{chunks}</strong>;

export default function About() {
  const { intl, t } = useT();
  return (
    <div className="stack">
      <PageHeader title={t("about.title")} description={t("about.description")} />
      <Card title={t("about.does.title")}>
        <ul className="list">
          <li>{t("about.does.reports")}</li>
          <li>{t("about.does.questionnaire")}</li>
          <li>{t("about.does.classes")}</li>
          <li>{t("about.does.analytics")}</li>
        </ul>
      </Card>
      <Card title={t("about.team.title")}>
        <p>{t("about.team.text")}</p>
      </Card>
      <Card title={t("about.roadmap.title")}>
        <ol className="list">
          <li>{intl.formatMessage({ id: "about.roadmap.now" }, { b })}</li>
          <li>{intl.formatMessage({ id: "about.roadmap.next" }, { b })}</li>
          <li>{intl.formatMessage({ id: "about.roadmap.later" }, { b })}</li>
        </ol>
      </Card>
      <p className="muted">{t("about.data")}</p>
    </div>
  );
}
