import type { Report, ReportSort } from "@gradecast/contract/reports";
import {
  type InfiniteData,
  keepPreviousData,
  type QueryClient,
  useInfiniteQuery,
} from "@tanstack/react-query";
import { api, downloadFile } from "../../api/client.ts";

// The teacher screens' calls to /api/reports: the paged list as an infinite query keyed by its
// search and sort, and the writes, which update the cached pages in place.

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

/** Puts an edited report in every cached page, or takes a deleted one out. */
export function patchCachedReports(client: QueryClient, id: string, next: Report | null): void {
  client.setQueriesData<Pages>({ queryKey: [...reportsKey, "list"] }, (data) =>
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
}
