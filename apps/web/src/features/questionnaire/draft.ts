import { type QuestionKey, questionByKey, questionKeys } from "@gradecast/contract/questionnaire";

// The questionnaire's draft survives a reload: kept in localStorage per user (the answers are
// personal, and one browser may serve several students), dropped once the form is saved.

export type Draft = Record<QuestionKey, string>;

export const emptyDraft = (): Draft =>
  Object.fromEntries(questionKeys.map((k) => [k, ""])) as Draft;

const keyFor = (userId: string) => `gradecast:questionnaire-draft:${userId}`;

/** The saved draft, keeping only answers that are still one of their question's options. */
export function loadDraft(userId: string): Draft {
  const draft = emptyDraft();
  let stored: unknown;
  try {
    stored = JSON.parse(localStorage.getItem(keyFor(userId)) ?? "null");
  } catch {
    return draft;
  }
  if (!stored || typeof stored !== "object") return draft;
  for (const key of questionKeys) {
    const value = (stored as Record<string, unknown>)[key];
    if (
      typeof value === "string" &&
      questionByKey[key].options.some((o) => String(o.value) === value)
    ) {
      draft[key] = value;
    }
  }
  return draft;
}

export function saveDraft(userId: string, draft: Draft): void {
  try {
    if (Object.values(draft).every((v) => v === "")) localStorage.removeItem(keyFor(userId));
    else localStorage.setItem(keyFor(userId), JSON.stringify(draft));
  } catch {
    // Storage refused (private mode, full): the draft lasts as long as the page.
  }
}

export function clearDraft(userId: string): void {
  try {
    localStorage.removeItem(keyFor(userId));
  } catch {
    // nothing to clear
  }
}
