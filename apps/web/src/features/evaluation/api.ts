import { routes } from "@gradecast/contract/routes/index";
import { useQuery } from "@tanstack/react-query";
import { call, downloadFile, routeUrl } from "../../api/client.ts";

// How the model did (issue 29): the page's figures for the school, the caller's classes or one
// class, and the CSV of outcomes against predictions (students under pseudonyms).

export function useEvaluation(classId: string) {
  return useQuery({
    queryKey: ["evaluation", classId],
    queryFn: ({ signal }) =>
      call(routes.evaluation.get.key, { query: classId ? { classId } : {} }, { signal }),
    retry: 1,
  });
}

export function downloadEvaluation(classId: string) {
  return downloadFile(
    routeUrl(routes.evaluation.csv.key, { query: classId ? { classId } : {} }),
    "evaluation.csv",
  );
}
