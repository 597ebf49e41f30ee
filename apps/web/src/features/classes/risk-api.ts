import type { ClassRisk, InterventionNote, NoteCreate } from "@gradecast/contract/class-risk";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, downloadFile } from "../../api/client.ts";
import { getQuery } from "../../api/queries.ts";
import { classesKey } from "./api.ts";

// The risk list's calls (issue 20): the list of a class, its CSV, and a new intervention note
// (a mutation), after which the list is fetched again.

const riskKey = (id: string) => [...classesKey, "risk", id] as const;

export function useClassRisk(id: string, enabled: boolean) {
  return useQuery({
    ...getQuery<ClassRisk>(riskKey(id), `/api/classes/${id}/risk`),
    enabled,
    retry: 1,
  });
}

export function downloadRisk(id: string) {
  return downloadFile(`/api/classes/${id}/risk.csv`, "risk-list.csv");
}

export function useAddNote(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ studentId, note }: { studentId: string; note: NoteCreate }) =>
      api<{ note: InterventionNote }>(
        "POST",
        `/api/classes/${id}/students/${studentId}/notes`,
        note,
      ).then((r) => r.note),
    onSuccess: () => client.invalidateQueries({ queryKey: riskKey(id) }),
  });
}
