import type { Subject } from "@gradecast/contract/classes";
import {
  isOptionalCapable,
  type QuestionKey,
  questionByKey,
} from "@gradecast/contract/questionnaire";
import { useMemo } from "react";
import { formatsOf } from "../../components/use-formats.ts";
import { createIntl, type MessageValues, type PageIntl, useIntlOrNull } from "../../i18n/intl.tsx";
import type { Messages } from "../../i18n/types.ts";
import prediction from "../../locales/en/prediction.json";
import { answerText, questionLabel } from "../questionnaire/text.ts";

// How the prediction screen writes its figures and answers in the page's language: scores
// ("12.5", "12,5"), signed effects ("+0.42", "−0,61" with a true minus sign, "±0.00"), dates,
// a question's label and an answer as the questionnaire wrote it (the contract's shared
// questionnaire.* catalogue).

export interface PredictionText {
  intl: PageIntl;
  /** A plain-text message of the page's language. */
  t: (id: string, values?: MessageValues) => string;
  score: (value: number) => string;
  dayTime: (iso: string) => string;
  signed: (value: number, digits?: number) => string;
  /** A question's label, as the questionnaire shows it. */
  label: (key: QuestionKey) => string;
  /** An answer: "Higher education", "Yes", "3"; "Not known yet" for a grade not given. */
  answer: (key: QuestionKey, value: string | number | null) => string;
  subject: (subject: Subject) => string;
  /** Names in a list: English keeps its joins ("A and B", "A or B", "A, B"); Portuguese "A e B". */
  list: (names: readonly string[], join: "and" | "or" | "comma") => string;
}

const subjectKeys: Record<Subject, string> = {
  mat: "questionnaire.subject.option.mat",
  por: "questionnaire.subject.option.por",
};

const joins = { and: " and ", or: " or ", comma: ", " } as const;

// A part rendered on its own, outside the page's provider (the what-if's outcome in its test),
// speaks English: this area's messages and the questions' labels as the contract writes them.
let english: PageIntl | undefined;
const englishIntl = () => {
  english ??= createIntl("en", {
    ...prediction,
    ...Object.fromEntries(
      Object.values(questionByKey).map((q) => [`questionnaire.${q.key}.label`, q.label]),
    ),
  } as Messages);
  return english;
};

export function usePredictionText(): PredictionText {
  const intl = useIntlOrNull() ?? englishIntl();
  return useMemo(() => textOf(intl), [intl]);
}

function textOf(intl: PageIntl): PredictionText {
  const formats = formatsOf(intl);
  const signed = (value: number, digits = 2) => {
    const fixed = Math.abs(value).toFixed(digits);
    const text = intl.formatNumber(Number(fixed), {
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    if (Number(fixed) === 0) return `±${text}`;
    return value > 0 ? `+${text}` : `−${text}`;
  };
  const answer = (key: QuestionKey, value: string | number | null) => {
    if (value === null) {
      if (key === "school") return intl.formatMessage({ id: "prediction.answer.schoolNotSet" });
      if (questionByKey[key].unknownLabel)
        return intl.formatMessage({ id: "questionnaire.notKnownYet" });
      return isOptionalCapable(key)
        ? intl.formatMessage({ id: "prediction.answer.notAnswered" })
        : intl.formatMessage({ id: "questionnaire.notGiven" });
    }
    const option = questionByKey[key].options.find((o) => String(o.value) === String(value));
    if (!option) return String(value);
    if (typeof option.value === "number" && String(option.value) === option.label) {
      return formats.number(option.value);
    }
    return answerText(intl, { key }, option);
  };
  return {
    intl,
    t: (id, values) => intl.formatMessage({ id }, values),
    score: formats.score,
    dayTime: formats.dayTime,
    signed,
    label: (key) => questionLabel(intl, { key }),
    answer,
    subject: (subject) => intl.formatMessage({ id: subjectKeys[subject] }),
    list: (names, join) =>
      intl.locale === "en" || join === "comma"
        ? names.join(joins[join])
        : new Intl.ListFormat(intl.locale, {
            style: "long",
            type: join === "or" ? "disjunction" : "conjunction",
          }).format(names),
  };
}
