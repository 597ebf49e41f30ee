import type { Question } from "@gradecast/contract/questionnaire";
import type { PageIntl } from "../../i18n/intl.tsx";

// The questionnaire in the page's language: the contract's shared catalogue (questionnaire.*),
// keyed by question, section and answer. A number answer (age, absences) has no key: its label is
// its value, written with the page's digits.

type Option = Question["options"][number];

export function questionLabel(intl: PageIntl, question: Pick<Question, "key">): string {
  return intl.formatMessage({ id: `questionnaire.${question.key}.label` });
}

export function questionHelp(intl: PageIntl, question: Pick<Question, "key">): string {
  return intl.formatMessage({ id: `questionnaire.${question.key}.help` });
}

export function sectionTitle(intl: PageIntl, section: { key: string }): string {
  return intl.formatMessage({ id: `questionnaire.section.${section.key}` });
}

/** An answer's label with a capital first letter, as the contract's optionText. */
export function answerText(
  intl: PageIntl,
  question: Pick<Question, "key">,
  option: Option,
): string {
  if (String(option.value) === option.label) return option.label;
  const label = intl.formatMessage({ id: `questionnaire.${question.key}.option.${option.value}` });
  return label.charAt(0).toUpperCase() + label.slice(1);
}
