import type { Question } from "@gradecast/contract/questionnaire";
import { Select } from "../../components/select.tsx";
import { useIntl } from "../../i18n/intl.tsx";
import { notKnownValue, preferNotValue } from "./draft.ts";
import { answerText, questionHelp, questionLabel } from "./text.ts";

// One question of the questionnaire: a required select with exactly the contract's options,
// each option's human label next to its code, and the question's one-line help. G1 and G2
// offer "Not known yet" first, for a prediction early in the term. A question the deployment
// marks optional (issue 31) says so in its label and offers "Prefer not to say" first.

export function questionInputId(question: Pick<Question, "key">, prefix = "q"): string {
  return `${prefix}-${question.key}`;
}

export interface QuestionSelectProps {
  question: Question;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  /** Prefix of the select's id, so two forms on one page do not clash. */
  idPrefix?: string;
  disabled?: boolean;
  /** Show the help line (default true). */
  help?: boolean;
  /** The deployment lets students leave this question out ("Prefer not to say"). */
  optional?: boolean;
}

export function QuestionSelect({
  question,
  value,
  onChange,
  error,
  idPrefix = "q",
  disabled,
  help = true,
  optional = false,
}: QuestionSelectProps) {
  const intl = useIntl();
  const label = questionLabel(intl, question);
  return (
    <Select
      id={questionInputId(question, idPrefix)}
      name={question.key}
      label={optional ? intl.formatMessage({ id: "studentInput.optional" }, { label }) : label}
      hint={help ? questionHelp(intl, question) : undefined}
      placeholder={intl.formatMessage({ id: "studentInput.select" })}
      options={[
        ...(question.unknownLabel
          ? [
              {
                value: notKnownValue,
                label: intl.formatMessage({ id: "questionnaire.notKnownYet" }),
              },
            ]
          : []),
        ...(optional
          ? [
              {
                value: preferNotValue,
                label: intl.formatMessage({ id: "studentInput.preferNotToSay" }),
              },
            ]
          : []),
        ...question.options.map((o) => ({
          value: String(o.value),
          label: answerText(intl, question, o),
        })),
      ]}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={error}
      required
      disabled={disabled}
    />
  );
}
