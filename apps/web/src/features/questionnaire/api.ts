import type { StudentRecord } from "@gradecast/contract/prediction";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client.ts";
import { getQuery } from "../../api/queries.ts";

// The questionnaire's calls. Saving (the original's "Add student" call): the student's report
// shows the latest saved answers, so its cached data is fetched again, and so are the saved
// answers the form opens with. Reading: the caller's own saved questionnaires, newest first.

const savedKey = ["students", "mine"] as const;

export function useSaveQuestionnaire() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (answers: Record<string, string | null>) =>
      api<{ student: StudentRecord }>("POST", "/api/students", answers).then((r) => r.student),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ["analytics"] });
      void client.invalidateQueries({ queryKey: savedKey });
    },
  });
}

/** The caller's newest saved answers (GET /api/students/mine), or null before the first save. */
export function useSavedAnswers(enabled = true) {
  return useQuery({
    ...getQuery<{ items: StudentRecord[] }>(savedKey, "/api/students/mine"),
    select: (page) => page.items[0] ?? null,
    enabled,
    retry: 1,
  });
}
