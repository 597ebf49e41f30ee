import type { AdminUser, AuditPage, UserPage } from "@gradecast/contract/admin";
import type { Role } from "@gradecast/contract/roles";
import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { api } from "../../api/client.ts";

// The admin screens' calls: the user list and the audit log as paged (infinite) queries keyed by
// their filters, and the user changes.

export const pageSize = 25;
export const usersKey = ["admin", "users"] as const;
export const auditKey = ["admin", "audit"] as const;

export function useUserList(search: string, pendingOnly: boolean) {
  return useInfiniteQuery({
    queryKey: [...usersKey, search, pendingOnly],
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams();
      if (search) params.set("search", search);
      if (pendingOnly) params.set("pending", "true");
      params.set("limit", String(pageSize));
      if (pageParam) params.set("cursor", pageParam);
      return api<UserPage>("GET", `/api/admin/users?${params}`, undefined, { signal });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
    retry: 1,
  });
}

export function updateUser(uid: string, change: { role?: Role; disabled?: boolean }) {
  return api<{ user: AdminUser }>("PATCH", `/api/admin/users/${uid}`, change).then((r) => r.user);
}

export function sendReset(uid: string) {
  return api<{ message: string }>("POST", `/api/admin/users/${uid}/reset-password`);
}

export interface AuditFilters {
  action: string;
  actor: string;
  /** Local dates (YYYY-MM-DD) from the date inputs; empty for none. */
  from: string;
  to: string;
}

export const noFilters: AuditFilters = { action: "", actor: "", from: "", to: "" };

/** A local date's midnight as an ISO time, so the period follows the admin's own days. */
function localMidnight(date: string, addDays = 0): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return new Date(y, m - 1, d + addDays).toISOString();
}

export function useAuditLog(filters: AuditFilters) {
  return useInfiniteQuery({
    queryKey: [...auditKey, filters],
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams();
      if (filters.action) params.set("action", filters.action);
      if (filters.actor) params.set("actor", filters.actor);
      if (filters.from) params.set("from", localMidnight(filters.from));
      // The whole last day: up to the next local midnight (exclusive).
      if (filters.to) params.set("to", localMidnight(filters.to, 1));
      params.set("limit", String(pageSize));
      if (pageParam) params.set("cursor", pageParam);
      return api<AuditPage>("GET", `/api/admin/audit?${params}`, undefined, { signal });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
    retry: 1,
  });
}
