import { optionLabel, type QuestionKey } from "@gradecast/contract/questionnaire";
import { shownScore } from "@gradecast/contract/score";

// How the prediction screen writes numbers and answers.

/** A score out of 20 with one decimal: "12.7", rounded as its band is (contract score.ts). */
export const score = (n: number) => shownScore(n).toFixed(1);

/** A signed number of points: "+0.42", "−0.61" (a true minus sign), "±0.00". */
export function signed(n: number, digits = 2): string {
  const text = Math.abs(n).toFixed(digits);
  if (Number(text) === 0) return `±${text}`;
  return n > 0 ? `+${text}` : `−${text}`;
}

/** An answer with its human label: "4 (higher education)", "yes". */
export function answerText(key: QuestionKey, value: string | number): string {
  const label = optionLabel(key, value);
  return label === String(value) ? label : `${value} (${label})`;
}

export function dateTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  });
}
