import type { StudentRecord } from "@gradecast/contract/prediction";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client.ts";

// Saving the questionnaire (the original's "Add student" call): the student's report shows the
// latest saved answers, so its cached data is fetched again.
export function useSaveQuestionnaire() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (answers: Record<string, string | null>) =>
      api<{ student: StudentRecord }>("POST", "/api/students", answers).then((r) => r.student),
    onSuccess: () => void client.invalidateQueries({ queryKey: ["analytics"] }),
  });
}
