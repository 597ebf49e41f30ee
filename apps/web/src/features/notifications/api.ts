import type {
  DigestChoice,
  FlagJudgement,
  NotificationList,
  Plan,
  PlanCreate,
  PlanUpdate,
} from "@gradecast/contract/alerts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { call } from "../../api/client.ts";

// Early warning's calls (issue 32): the caller's notifications and digest setting, a class's
// flags and intervention plans.

export const notificationsKey = ["notifications"] as const;
const digestKey = ["digest"] as const;
const flagsKey = (classId: string) => ["classes", "flags", classId] as const;
const plansKey = (classId: string) => ["classes", "plans", classId] as const;

/** A write after which the answers under `queryKey` are fetched again. */
function useWriteThenRead<V, T>(queryKey: readonly unknown[], mutationFn: (v: V) => Promise<T>) {
  const client = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => client.invalidateQueries({ queryKey }) });
}

export function useNotifications(enabled = true) {
  return useQuery<NotificationList>({
    queryKey: notificationsKey,
    queryFn: ({ signal }) => call("GET /api/notifications", undefined, { signal }),
    enabled,
    // The bell looks again each minute while the app is open.
    refetchInterval: 60_000,
  });
}

export function useMarkRead() {
  return useWriteThenRead(notificationsKey, (body: { all: true } | { ids: string[] }) =>
    call("POST /api/notifications/read", { body }),
  );
}

export function useDigest() {
  return useQuery({
    queryKey: digestKey,
    queryFn: ({ signal }) => call("GET /api/me/digest", undefined, { signal }),
  });
}

export function useSetDigest() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (digest: DigestChoice) => call("PUT /api/me/digest", { body: { digest } }),
    onSuccess: (data) => client.setQueryData(digestKey, data),
  });
}

export function useFlags(classId: string, enabled: boolean) {
  return useQuery({
    queryKey: flagsKey(classId),
    queryFn: ({ signal }) =>
      call("GET /api/classes/:id/flags", { params: { id: classId } }, { signal }),
    enabled,
  });
}

export function useJudgeFlag(classId: string) {
  return useWriteThenRead(
    flagsKey(classId),
    (v: { studentId: string; judgement: FlagJudgement; reason?: string }) =>
      call("PUT /api/classes/:id/students/:uid/flag", {
        params: { id: classId, uid: v.studentId },
        body: { judgement: v.judgement, ...(v.reason ? { reason: v.reason } : {}) },
      }),
  );
}

export function usePlans(classId: string, enabled: boolean) {
  return useQuery({
    queryKey: plansKey(classId),
    queryFn: ({ signal }) =>
      call("GET /api/classes/:id/plans", { params: { id: classId } }, { signal }),
    enabled,
  });
}

export function useCreatePlan(classId: string) {
  return useWriteThenRead(
    plansKey(classId),
    (v: { studentId: string; plan: PlanCreate }): Promise<Plan> =>
      call("POST /api/classes/:id/students/:uid/plans", {
        params: { id: classId, uid: v.studentId },
        body: v.plan,
      }).then((r) => r.plan),
  );
}

export function useUpdatePlan(classId: string) {
  return useWriteThenRead(
    plansKey(classId),
    (v: { planId: string; change: PlanUpdate }): Promise<Plan> =>
      call("PATCH /api/classes/:id/plans/:planId", {
        params: { id: classId, planId: v.planId },
        body: v.change,
      }).then((r) => r.plan),
  );
}
