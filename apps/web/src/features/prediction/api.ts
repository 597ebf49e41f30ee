import type { Sharing } from "@gradecast/contract/class-risk";
import type { PredictionHistory, PredictionResult } from "@gradecast/contract/prediction";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client.ts";
import { getQuery } from "../../api/queries.ts";

// The student's calls to the grade model: a prediction (stored, as the original's POST
// /predict: a mutation, after which the history is fetched again), a what-if (the same answer,
// not stored: a query keyed by the answers), and the history of stored predictions.

const predictionsKey = ["predictions", "mine"] as const;

/** Answers as sent: every value a string, as the original sent them; null when not known yet. */
export type Answers = Record<string, string | null>;

export function usePredict() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (answers: Answers) => api<PredictionResult>("POST", "/api/predict", answers),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: predictionsKey });
      void client.invalidateQueries({ queryKey: ["analytics"] });
    },
  });
}

/** What the model would answer to these answers, not stored; nothing is asked while null. */
export function useWhatIf(answers: Answers | null) {
  return useQuery({
    queryKey: ["predictions", "what-if", answers],
    queryFn: ({ signal }) =>
      api<PredictionResult>("POST", "/api/predict?store=false", answers, { signal }),
    enabled: answers !== null,
    // The same answers always get the same answer from the same model.
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}

export function usePredictionHistory() {
  return useQuery(getQuery<PredictionHistory>(predictionsKey, "/api/predictions/mine"));
}

/** The answers of a prediction as sent again (strings; null stays null). */
export function answersOf(result: Pick<PredictionResult, "inputs">): Answers {
  return Object.fromEntries(
    Object.entries(result.inputs).map(([k, v]) => [k, v === null ? null : String(v)]),
  );
}

const sharingKey = ["me", "sharing"] as const;

/** Whether the student's teachers see the full explanation of their prediction (issue 20). */
export function useSharing() {
  return useQuery({ ...getQuery<Sharing>(sharingKey, "/api/me/sharing"), retry: 1 });
}

export function useShareExplanation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (shareExplanation: boolean) =>
      api<Sharing>("PATCH", "/api/me/sharing", { shareExplanation }),
    onSuccess: (saved) => client.setQueryData(sharingKey, saved),
  });
}
