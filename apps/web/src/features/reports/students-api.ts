import type { EnrolledStudent, MyReportsPage } from "@gradecast/contract/report-students";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api } from "../../api/client.ts";
import { usePagedList } from "../../api/queries.ts";

// Reports and enrolled students: the report form's picker over the teacher's rosters, and the
// student's own reports (GET /api/me/reports), paged like the teacher's list.

export function useEnrolledStudents(search: string, enabled: boolean) {
  return useQuery<EnrolledStudent[]>({
    queryKey: ["classes", "students", search],
    queryFn: ({ signal }) =>
      api<{ items: EnrolledStudent[] }>(
        "GET",
        `/api/classes/students?${new URLSearchParams({ search, limit: "20" })}`,
        undefined,
        { signal },
      ).then((r) => r.items),
    enabled,
    placeholderData: keepPreviousData,
    retry: 1,
  });
}

export function useMyReports() {
  return usePagedList<MyReportsPage>(
    ["me", "reports"],
    "/api/me/reports",
    new URLSearchParams(),
    10,
  );
}
