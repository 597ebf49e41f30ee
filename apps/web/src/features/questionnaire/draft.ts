import {
  askedQuestions,
  isOptionalCapable,
  notAsked,
  type QuestionKey,
  questionByKey,
  questionKeys,
} from "@gradecast/contract/questionnaire";
import { deviceDraft } from "../../api/device-draft.ts";

// The questionnaire's draft on this device (api/device-draft.ts): answers are kept only while
// they are one of their question's options (or "not known yet" where the question allows it).
// The school is never asked (the deployment's, issue 28): it stays empty and is never sent.

/** The questions the form asks. */
export const askedKeys: readonly QuestionKey[] = askedQuestions.map((q) => q.key);

export type Draft = Record<QuestionKey, string>;

/** The form's value for "not known yet" (G1, G2); sent to the API as null. */
export const notKnownValue = "not-known";

/**
 * The form's value for "Prefer not to say" on a question the deployment marks optional (issue
 * 31; GET /api/site lists them); sent to the API as null. The draft keeps it.
 */
export const preferNotValue = "prefer-not";

/**
 * Whether `value` answers the question: one of its options, "not known yet" where allowed, or
 * "Prefer not to say" on a question a deployment may mark optional (the server checks its own).
 */
export function isAnswer(key: QuestionKey, value: string): boolean {
  if (notAsked.has(key)) return false;
  const q = questionByKey[key];
  if (value === notKnownValue) return q.unknownLabel !== undefined;
  if (value === preferNotValue) return isOptionalCapable(key);
  return q.options.some((o) => String(o.value) === value);
}

/** The draft as the API reads it: "not known yet" and "Prefer not to say" become null. */
export function toRequest(draft: Draft): Record<string, string | null> {
  return Object.fromEntries(
    askedKeys.map((k) => [
      k,
      draft[k] === notKnownValue || draft[k] === preferNotValue ? null : draft[k],
    ]),
  );
}

export const emptyDraft = (): Draft =>
  Object.fromEntries(questionKeys.map((k) => [k, ""])) as Draft;

const questionnaireDraft = deviceDraft<Draft>("questionnaire", emptyDraft, (key, value) =>
  isAnswer(key, value) ? value : null,
);

/** The saved draft, keeping only answers that are still one of their question's options. */
export const loadDraft = questionnaireDraft.load;
export const saveDraft = questionnaireDraft.save;
export const clearDraft = questionnaireDraft.clear;

/**
 * Saved answers (a stored questionnaire, or the answers of a stored prediction) as the form's
 * values: numbers as text, a grade not known yet as "not-known", an optional question left out
 * as "prefer-not"; an answer that is no longer one
 * of its question's options is left unanswered.
 */
export function fromSaved(saved: Readonly<Partial<Record<QuestionKey, unknown>>>): Draft {
  const draft = emptyDraft();
  for (const key of askedKeys) {
    const value = saved[key];
    const text =
      value === null
        ? questionByKey[key].unknownLabel !== undefined
          ? notKnownValue
          : preferNotValue
        : typeof value === "string" || typeof value === "number"
          ? String(value)
          : "";
    if (text !== "" && isAnswer(key, text)) draft[key] = text;
  }
  return draft;
}

/** Whether two sets of answers are the same. */
export function sameAnswers(a: Draft, b: Draft): boolean {
  return askedKeys.every((k) => a[k] === b[k]);
}

/** Whether anything is answered. */
export function anyAnswer(draft: Draft): boolean {
  return askedKeys.some((k) => draft[k] !== "");
}
