import type { PredictionHistory, PredictionResult } from "@gradecast/contract/prediction";
import { useQuery } from "@tanstack/react-query";
import { api } from "../../api/client.ts";

// The student's calls to the grade model: a prediction (stored, as the original's POST
// /predict), a what-if (the same answer, not stored), and the history of stored predictions.

export const predictionsKey = ["predictions", "mine"] as const;

/** Answers as the form holds them: every value a string, as the original sent them. */
export type Answers = Record<string, string>;

export function requestPrediction(answers: Answers, signal?: AbortSignal) {
  return api<PredictionResult>("POST", "/api/predict", answers, signal ? { signal } : {});
}

export function requestWhatIf(answers: Answers, signal?: AbortSignal) {
  return api<PredictionResult>(
    "POST",
    "/api/predict?store=false",
    answers,
    signal ? { signal } : {},
  );
}

export function usePredictionHistory() {
  return useQuery({
    queryKey: predictionsKey,
    queryFn: ({ signal }) =>
      api<PredictionHistory>("GET", "/api/predictions/mine", undefined, { signal }),
  });
}

/** The answers of a prediction in the form's shape (strings). */
export function answersOf(result: Pick<PredictionResult, "inputs">): Answers {
  return Object.fromEntries(Object.entries(result.inputs).map(([k, v]) => [k, String(v)]));
}
