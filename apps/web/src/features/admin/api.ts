import type { AdminUser, AuditPage, UserPage } from "@gradecast/contract/admin";
import type { Role } from "@gradecast/contract/roles";
import type { TeacherInvitation } from "@gradecast/contract/teacher-invitations";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client.ts";
import { usePagedList } from "../../api/queries.ts";

// The admin screens' calls: the user list and the audit log as paged (infinite) queries keyed by
// their filters, and the changes to accounts (mutations), after which both are fetched again:
// every change is written to the audit log.

export const pageSize = 25;
export const usersKey = ["admin", "users"] as const;
export const auditKey = ["admin", "audit"] as const;

export function useUserList(search: string, pendingOnly: boolean, reviewOnly = false) {
  const params = new URLSearchParams();
  if (search) params.set("search", search);
  if (pendingOnly) params.set("pending", "true");
  if (reviewOnly) params.set("review", "true");
  return usePagedList<UserPage>(
    [...usersKey, search, pendingOnly, reviewOnly],
    "/api/admin/users",
    params,
    pageSize,
  );
}

/** Teacher sign-ups waiting for an admin, for the sidebar; refetched with the user list. */
export function usePendingTeacherCount(enabled: boolean) {
  return useQuery({
    queryKey: [...usersKey, "pending-count"],
    queryFn: ({ signal }) =>
      api<UserPage>("GET", "/api/admin/users?pending=true&limit=1", undefined, { signal }).then(
        (page) => page.pendingCount,
      ),
    enabled,
    staleTime: 30_000,
  });
}

/** An admin's write; once it is done the user list and the audit log are fetched again. */
function useAdminWrite<V, R>(mutationFn: (variables: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: usersKey });
      void client.invalidateQueries({ queryKey: auditKey });
    },
  });
}

type UserChange = { role?: Role; disabled?: boolean };

/**
 * The changes to one account, as functions that resolve when the change is made: its role or
 * whether it is disabled, rejecting a pending teacher request (the account stays a student), a
 * password-reset email, and (issue 18) ending all its sessions and resetting its two-step
 * sign-in.
 */
export function useUserActions() {
  const one = (r: { user: AdminUser }) => r.user;
  const update = useAdminWrite(({ uid, change }: { uid: string; change: UserChange }) =>
    api<{ user: AdminUser }>("PATCH", `/api/admin/users/${uid}`, change).then(one),
  );
  const reject = useAdminWrite((uid: string) =>
    api<{ user: AdminUser }>("POST", `/api/admin/users/${uid}/reject-teacher`).then(one),
  );
  const reset = useAdminWrite((uid: string) =>
    api<{ message: string }>("POST", `/api/admin/users/${uid}/reset-password`),
  );
  const sessions = useAdminWrite((uid: string) =>
    api<void>("DELETE", `/api/admin/users/${uid}/sessions`),
  );
  const mfa = useAdminWrite((uid: string) =>
    api<{ message: string }>("DELETE", `/api/admin/users/${uid}/mfa`),
  );
  return {
    updateUser: (uid: string, change: UserChange) => update.mutateAsync({ uid, change }),
    rejectTeacher: reject.mutateAsync,
    sendReset: reset.mutateAsync,
    endAllSessions: sessions.mutateAsync,
    resetMfa: mfa.mutateAsync,
  };
}

export const useInviteTeacher = () =>
  useAdminWrite((invitation: { name: string; email: string }) =>
    api<{ invitation: TeacherInvitation }>("POST", "/api/admin/invitations", invitation).then(
      (r) => r.invitation,
    ),
  );

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
  const params = new URLSearchParams();
  if (filters.action) params.set("action", filters.action);
  if (filters.actor) params.set("actor", filters.actor);
  if (filters.from) params.set("from", localMidnight(filters.from));
  // The whole last day: up to the next local midnight (exclusive).
  if (filters.to) params.set("to", localMidnight(filters.to, 1));
  return usePagedList<AuditPage>([...auditKey, filters], "/api/admin/audit", params, pageSize);
}
