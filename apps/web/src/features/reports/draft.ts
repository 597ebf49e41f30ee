import { acceptsTyping, behaviors, reportLimits } from "@gradecast/contract/reports";
import type { ReportFormValues } from "./api.ts";
import { emptyReport, numericFields } from "./form.ts";

// The teacher form's draft survives a reload, Back/Forward and a session that expired: kept in
// localStorage per user (one browser may serve several teachers), dropped once the report is
// submitted. The `gradecast:` prefix makes logout forget it (session.tsx forgetUserData).

const keyFor = (userId: string) => `gradecast:report-draft:${userId}`;

const textLimits = {
  studentName: reportLimits.studentName.max,
  course: reportLimits.course.max,
  feedback: reportLimits.feedback.max,
} as const;

/** The saved draft, keeping only values the form itself could have produced. */
export function loadReportDraft(userId: string): ReportFormValues {
  const draft = { ...emptyReport };
  let stored: unknown;
  try {
    stored = JSON.parse(localStorage.getItem(keyFor(userId)) ?? "null");
  } catch {
    return draft;
  }
  if (!stored || typeof stored !== "object") return draft;
  const read = (key: keyof ReportFormValues) => {
    const value = (stored as Record<string, unknown>)[key];
    return typeof value === "string" ? value : null;
  };
  for (const key of numericFields) {
    const value = read(key);
    if (value !== null && acceptsTyping(key, value)) draft[key] = value;
  }
  for (const key of Object.keys(textLimits) as (keyof typeof textLimits)[]) {
    const value = read(key);
    if (value !== null) draft[key] = value.slice(0, textLimits[key]);
  }
  const behavior = read("behavior");
  if (behavior !== null && (behaviors as readonly string[]).includes(behavior)) {
    draft.behavior = behavior;
  }
  return draft;
}

export function saveReportDraft(userId: string, values: ReportFormValues): void {
  try {
    if (Object.values(values).every((v) => v === "")) localStorage.removeItem(keyFor(userId));
    else localStorage.setItem(keyFor(userId), JSON.stringify(values));
  } catch {
    // Storage refused (private mode, full): the draft lasts as long as the page.
  }
}

export function clearReportDraft(userId: string): void {
  try {
    localStorage.removeItem(keyFor(userId));
  } catch {
    // nothing to clear
  }
}
