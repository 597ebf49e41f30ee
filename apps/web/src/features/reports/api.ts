import type { Report, ReportSort } from "@gradecast/contract/reports";
import {
  type InfiniteData,
  keepPreviousData,
  type QueryClient,
  useInfiniteQuery,
} from "@tanstack/react-query";
import { api, downloadFile } from "../../api/client.ts";

// The teacher screens' calls to /api/reports: the paged list as an infinite query keyed by its
// search and sort, and the writes, after which the cached lists are fetched again.

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
  return useInfiniteQuery({
    queryKey: [...reportsKey, "list", search, sort],
    queryFn: ({ pageParam, signal }) => {
      const params = listParams(search, sort);
      params.set("limit", String(pageSize));
      if (pageParam) params.set("cursor", pageParam);
      return api<ReportPage>("GET", `/api/reports?${params}`, undefined, { signal });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
    retry: 1,
  });
}

export type ReportFormValues = Record<
  "studentName" | "course" | "marks" | "attendance" | "assignments" | "behavior" | "feedback",
  string
>;

export function createReport(values: ReportFormValues) {
  return api<{ report: Report }>("POST", "/api/reports", values).then((r) => r.report);
}

export function updateReport(id: string, values: Partial<ReportFormValues>) {
  return api<{ report: Report }>("PATCH", `/api/reports/${id}`, values).then((r) => r.report);
}

export function deleteReport(id: string) {
  return api<void>("DELETE", `/api/reports/${id}`);
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
export function refreshReportLists(
  client: QueryClient,
  id: string,
  next: Report | null,
): Promise<void> {
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
