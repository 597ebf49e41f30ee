import { type QuestionKey, questionByKey, questionKeys } from "@gradecast/contract/questionnaire";
import { deviceDraft } from "../../api/device-draft.ts";

// The questionnaire's draft on this device (api/device-draft.ts): answers are kept only while
// they are one of their question's options.

export type Draft = Record<QuestionKey, string>;

export const emptyDraft = (): Draft =>
  Object.fromEntries(questionKeys.map((k) => [k, ""])) as Draft;

const questionnaireDraft = deviceDraft<Draft>("questionnaire", emptyDraft, (key, value) =>
  questionByKey[key].options.some((o) => String(o.value) === value) ? value : null,
);

/** The saved draft, keeping only answers that are still one of their question's options. */
export const loadDraft = questionnaireDraft.load;
export const saveDraft = questionnaireDraft.save;
export const clearDraft = questionnaireDraft.clear;
