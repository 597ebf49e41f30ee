import { joinCodeLength } from "@gradecast/contract/classes";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { LabelledCard } from "../components/card.tsx";
import { PageHeader } from "../components/page-header.tsx";
import { useIntl, useT } from "../i18n/intl.tsx";

// /help: what people ask in their first weeks (issue 28), by topic: classes, predictions,
// privacy, then passwords and the account. Linked from every signed-in page's top bar.

/** A question's key (help.<key>.q and help.<key>.a) and where the answer's link goes. */
interface Question {
  key: string;
  to?: string;
}

const classes: Question[] = [
  { key: "join", to: "/student-dashboard" },
  { key: "invited", to: "/register" },
  { key: "startClass", to: "/classes" },
  { key: "approval", to: "/dashboard" },
];
const predictions: Question[] = [
  { key: "score" },
  { key: "update", to: "/student-input" },
  { key: "risk" },
];
const privacy: Question[] = [{ key: "who" }, { key: "where" }];
const passwords: Question[] = [
  { key: "forgot", to: "/forgot-password" },
  { key: "noMail" },
  { key: "expired", to: "/forgot-password" },
  { key: "signOut" },
  { key: "change", to: "/settings" },
  { key: "code", to: "/Verify" },
];

// Every message, literally (the message check finds keys by their text in the sources).
const texts: Record<string, [string, string]> = {
  join: ["help.join.q", "help.join.a"],
  invited: ["help.invited.q", "help.invited.a"],
  startClass: ["help.startClass.q", "help.startClass.a"],
  approval: ["help.approval.q", "help.approval.a"],
  score: ["help.score.q", "help.score.a"],
  update: ["help.update.q", "help.update.a"],
  risk: ["help.risk.q", "help.risk.a"],
  who: ["help.who.q", "help.who.a"],
  where: ["help.where.q", "help.where.a"],
  forgot: ["help.forgot.q", "help.forgot.a"],
  noMail: ["help.noMail.q", "help.noMail.a"],
  expired: ["help.expired.q", "help.expired.a"],
  signOut: ["help.signOut.q", "help.signOut.a"],
  change: ["help.change.q", "help.change.a"],
  code: ["help.code.q", "help.code.a"],
};

export default function Help() {
  const { intl, t } = useT();
  return (
    <div className="stack">
      <PageHeader title={t("help.title")} description={t("help.description")} />
      <Topic id="faq-classes" title={t("help.topic.classes")} questions={classes} />
      <Topic id="faq-predictions" title={t("help.topic.predictions")} questions={predictions} />
      <Topic id="faq-privacy" title={t("help.topic.privacy")} questions={privacy} />
      <Topic id="faq-title" title={t("help.topic.account")} questions={passwords} />
      <p>
        {intl.formatMessage(
          { id: "help.stuck" },
          { link: (chunks: ReactNode[]) => <Link to="/contact">{chunks}</Link> },
        )}
      </p>
    </div>
  );
}

function Topic({ id, title, questions }: { id: string; title: string; questions: Question[] }) {
  const intl = useIntl();
  return (
    <LabelledCard id={id} title={title}>
      <dl className="faq">
        {questions.map(({ key, to }) => {
          const [q, a] = texts[key]!;
          return (
            <div key={key} className="faq-item">
              <dt>{intl.formatMessage({ id: q })}</dt>
              <dd>
                {intl.formatMessage(
                  { id: a },
                  {
                    length: joinCodeLength,
                    link: (chunks: ReactNode[]) => <Link to={to ?? "/help"}>{chunks}</Link>,
                  },
                )}
              </dd>
            </div>
          );
        })}
      </dl>
    </LabelledCard>
  );
}
