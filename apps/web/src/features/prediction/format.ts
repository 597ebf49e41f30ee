import { formatDayTime } from "@gradecast/contract/dates";
import { optionLabel, optionText, type QuestionKey } from "@gradecast/contract/questionnaire";
import { formatScore } from "@gradecast/contract/score";

// How the prediction screen writes numbers and answers. A score is written by the contract's
// formatScore, here as on every screen: "12.7".

/** A chart's tooltip writes the scores it shows as the page does. */
export function scoreTooltip(value: unknown): string {
  return typeof value === "number" ? formatScore(value) : String(value ?? "");
}

/**
 * An answer as the questionnaire wrote it (the contract's optionText): "Higher education",
 * "Yes", "3"; "Not known yet" for a grade not given; the school, when the deployment sets none,
 * "Not set (neither school)".
 */
export function answerText(key: QuestionKey, value: string | number | null): string {
  const label = optionLabel(key, value);
  if (value === null) return key === "school" ? "Not set (neither school)" : label;
  return optionText({ value, label });
}

export function dateTime(iso: string): string {
  return formatDayTime(iso);
}
