import { messages } from "@gradecast/contract/messages";
import { type Behavior, behaviors } from "@gradecast/contract/reports";
import { plainTextMessage, singleLineMessage } from "@gradecast/contract/text";
import type { ReactNode } from "react";
import { type MessageValues, type RichValues, useT } from "../../i18n/intl.tsx";

// The report screens' words in the page's language (issue 33). A report's behaviour is stored as
// the contract's English word and shown through the catalogue; the contract's report schema
// writes its field messages in English (as the server does before it translates them), so the
// form finds them again by their English text, as the server's translate.ts does.

const behaviorKeys = {
  Excellent: "reports.behavior.excellent",
  Good: "reports.behavior.good",
  Average: "reports.behavior.average",
  "Needs Improvement": "reports.behavior.needsImprovement",
  Poor: "reports.behavior.poor",
} as const satisfies Record<Behavior, string>;

const exact = new Map<string, string>([
  [messages.reportRequired, "messages.reportRequired"],
  [messages.reportRange, "messages.reportRange"],
  [singleLineMessage, "fields.singleLine"],
  [plainTextMessage, "reports.field.plainText"],
]);

export type Say = (id: string, values?: MessageValues) => string;

export interface ReportText {
  t: Say;
  /** A message with elements (`<strong>…</strong>`). */
  rich: (id: string, values: RichValues) => ReactNode;
  /** A stored behaviour in the page's language; another stored text as it is. */
  behavior: (stored: string) => string;
  /** A message of the contract's report schema (English) in the page's language. */
  contract: (message: string) => string;
  /** The form's one message for a set of field messages (contract reportFormMessage's rule). */
  formMessage: (fields: Record<string, string>) => string | null;
}

export function useReportText(): ReportText {
  const { intl, t } = useT();
  const rich = (id: string, values: RichValues) => intl.formatMessage({ id }, values);
  const behavior = (stored: string) =>
    stored in behaviorKeys ? t(behaviorKeys[stored as Behavior]) : stored;
  const contract = (message: string) => {
    if (intl.locale === "en") return message;
    const id = exact.get(message);
    if (id) return t(id);
    const atMost = /^Use at most (\d+) characters\.$/.exec(message);
    if (atMost) return t("fields.atMost", { max: Number(atMost[1]) });
    if (message === `Choose one of: ${behaviors.join(", ")}.`) {
      return t("fields.chooseOneOf", { allowed: behaviors.map(behavior).join(", ") });
    }
    return message;
  };
  const formMessage = (fields: Record<string, string>) => {
    const all = Object.values(fields);
    if (all.length === 0) return null;
    for (const first of [messages.reportRequired, messages.reportRange].map(contract)) {
      if (all.includes(first)) return first;
    }
    return all[0] ?? null;
  };
  return { t, rich, behavior, contract, formMessage };
}
