// Score bands: the prediction is out of 20; below 7 "improve", below 14 "good", else
// "congratulations" (`bandOf`, on the score as shown).
export type Band = "improve" | "good" | "congratulations";

export const bandMessages: Record<Band, string> = {
  improve: "You need to improve!",
  good: "Good effort!",
  congratulations: "Congratulations!",
};

export const noPredictionMessage = "No prediction available.";

/** A score as every screen shows it: one decimal. */
export function shownScore(score: number): number {
  return Math.round(score * 10) / 10;
}

/** A score as text, the one way every screen writes it: "12.0", "7.3". */
export function formatScore(score: number): string {
  return shownScore(score).toFixed(1);
}

/** The band of a score as shown, so that a score shown as 14.0 never reads "Good effort!". */
export function bandOf(score: number): Band {
  const shown = shownScore(score);
  if (shown < 7) return "improve";
  if (shown < 14) return "good";
  return "congratulations";
}

/** The message a student sees for a score, or for no score at all. */
export function scoreMessage(score: number | null | undefined): string {
  if (score === null || score === undefined || Number.isNaN(score)) return noPredictionMessage;
  return bandMessages[bandOf(score)];
}
