import type { Report, ReportSort } from "@gradecast/contract/reports";
import {
  type InfiniteData,
  type QueryClient,
  useMutation,
  useQueryClient,
} from "@tanstack/react-query";
import { ApiError, api, downloadFile } from "../../api/client.ts";
import { usePagedList } from "../../api/queries.ts";
import type { StudentLink } from "./student-picker.tsx";

// The teacher screens' calls to /api/reports: the paged list as an infinite query keyed by its
// search and sort, and the writes (mutations), after which the cached lists are fetched again.

export interface ReportPage {
  items: Report[];
  nextCursor: string | null;
}

export const pageSize = 25;
export const reportsKey = ["reports"] as const;

function listParams(search: string, sort: ReportSort): URLSearchParams {
  const params = new URLSearchParams();
  if (search) params.set("search", search);
  params.set("sort", sort);
  return params;
}

export function useReportList(search: string, sort: ReportSort) {
  return usePagedList<ReportPage>(
    [...reportsKey, "list", search, sort],
    "/api/reports",
    listParams(search, sort),
    pageSize,
  );
}

export type ReportFormValues = Record<
  "studentName" | "course" | "marks" | "attendance" | "assignments" | "behavior" | "feedback",
  string
>;

/** With studentId and classId when the student was chosen from the teacher's classes. */
export type NewReport = ReportFormValues & Partial<StudentLink>;

const one = (r: { report: Report }) => r.report;

export function useCreateReport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (values: NewReport) =>
      api<{ report: Report }>("POST", "/api/reports", values).then(one),
    onSuccess: () => void client.invalidateQueries({ queryKey: reportsKey }),
  });
}

/** An edit of the fields, or the link of a free-text report to an enrolled student. */
export function useUpdateReport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, change }: { id: string; change: Partial<ReportFormValues> | StudentLink }) =>
      api<{ report: Report }>("PATCH", `/api/reports/${id}`, change).then(one),
    onSuccess: (report) => void refreshReportLists(client, report.id, report),
  });
}

/** A report already gone (deleted elsewhere) counts as deleted. */
export function useDeleteReport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<void>("DELETE", `/api/reports/${id}`).catch((err: unknown) => {
        if (!(err instanceof ApiError && err.status === 404)) throw err;
      }),
    onSuccess: (_done, id) => void refreshReportLists(client, id, null),
  });
}

export function exportReports(search: string, sort: ReportSort) {
  return downloadFile(`/api/reports/export.csv?${listParams(search, sort)}`, "student-reports.csv");
}

type Pages = InfiniteData<ReportPage, string | null>;

/**
 * After an edit or a delete: the row changes or goes at once, then every cached list is fetched
 * again, all its loaded pages. An edit can move a report in the sort or out of the search, and a
 * list patched in place would keep it where it was and show it again on a later page.
 */
function refreshReportLists(client: QueryClient, id: string, next: Report | null): Promise<void> {
  const listKey = [...reportsKey, "list"];
  client.setQueriesData<Pages>({ queryKey: listKey }, (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            items: next
              ? page.items.map((r) => (r.id === id ? next : r))
              : page.items.filter((r) => r.id !== id),
          })),
        }
      : data,
  );
  return client.invalidateQueries({ queryKey: listKey });
}
