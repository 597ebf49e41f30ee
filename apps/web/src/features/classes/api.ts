import type {
  ClassCreate,
  ClassMembers,
  ClassView,
  MyClassInvitation,
  RosterResult,
} from "@gradecast/contract/classes";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client.ts";
import { getQuery } from "../../api/queries.ts";

// The class screens' calls to /api/classes: the list, one class, its members, and the writes
// (mutations), after which every cached class answer is fetched again: the lists, the class, its
// members, its risk list and the report form's enrolled students all sit under `classesKey`.

export const classesKey = ["classes"] as const;
const classKey = (id: string) => [...classesKey, "one", id] as const;
const membersKey = (id: string) => [...classesKey, "members", id] as const;

/** The caller's classes; `enabled: false` asks nothing (a caller who may have none). */
export function useClasses({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    enabled,
    queryKey: [...classesKey, "list"],
    queryFn: ({ signal }) =>
      api<{ items: ClassView[] }>("GET", "/api/classes", undefined, { signal }).then(
        (r) => r.items,
      ),
    retry: 1,
  });
}

export function useClass(id: string) {
  return useQuery({
    queryKey: classKey(id),
    queryFn: ({ signal }) =>
      api<{ class: ClassView }>("GET", `/api/classes/${id}`, undefined, { signal }).then(
        (r) => r.class,
      ),
    retry: (count, error) => count < 1 && (error as { status?: number }).status !== 404,
  });
}

export function useMembers(id: string, enabled: boolean) {
  return useQuery({
    ...getQuery<ClassMembers>(membersKey(id), `/api/classes/${id}/members`),
    enabled,
    retry: 1,
  });
}

/** A write to the classes; once it has changed them the cached class answers are fetched again. */
function useClassWrite<V, R>(
  mutationFn: (variables: V) => Promise<R>,
  changes: (variables: V) => boolean = () => true,
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (_answer, variables) =>
      changes(variables) ? client.invalidateQueries({ queryKey: classesKey }) : undefined,
  });
}

const one = (r: { class: ClassView }) => r.class;

export const useCreateClass = () =>
  useClassWrite((values: ClassCreate) =>
    api<{ class: ClassView }>("POST", "/api/classes", values).then(one),
  );

export const useUpdateClass = (id: string) =>
  useClassWrite((values: Partial<ClassCreate>) =>
    api<{ class: ClassView }>("PATCH", `/api/classes/${id}`, values).then(one),
  );

export const useAddTeacher = (id: string) =>
  useClassWrite((email: string) =>
    api<{ class: ClassView }>("POST", `/api/classes/${id}/teachers`, { email }).then(one),
  );

/** A new join code (which also switches joining on), or none (joining off). */
export const useJoinCode = (id: string) =>
  useClassWrite((on: boolean) =>
    api<{ class: ClassView }>(on ? "POST" : "DELETE", `/api/classes/${id}/join-code`).then(one),
  );

/** A member leaves the class: a student, or one of its teachers. */
export const useRemoveMember = (id: string) =>
  useClassWrite(({ kind, uid }: { kind: "student" | "teacher"; uid: string }) =>
    api<void>("DELETE", `/api/classes/${id}/${kind}s/${uid}`),
  );

export const useJoinClass = () =>
  useClassWrite((code: string) =>
    api<{ class: ClassView; message: string }>("POST", "/api/classes/join", { code }),
  );

/** Sends a roster file as its own bytes: `preview` says what would change and changes nothing. */
export const useRosterUpload = (id: string) =>
  useClassWrite(
    ({ file, preview }: { file: Blob; preview: boolean }) =>
      api<RosterResult>(
        "POST",
        `/api/classes/${id}/roster${preview ? "/preview" : ""}`,
        new Blob([file], { type: "text/csv" }),
      ),
    ({ preview }) => !preview,
  );

/**
 * Deleting the class: the cached answers are only marked stale, not fetched again, since the
 * class page that asked would fetch a class that is gone; the list is fetched when shown.
 */
export function useDeleteClass(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<void>("DELETE", `/api/classes/${id}`),
    onSuccess: () => client.invalidateQueries({ queryKey: classesKey, refetchType: "none" }),
  });
}

// A student's side (issue 26): the classes that invited them, answered with Accept or Decline,
// and leaving a class. Each answer changes their classes, their invitations and whom their
// sharing applies to: all three are fetched again.
const myInvitationsKey = ["me", "class-invitations"] as const;

export function useMyInvitations(enabled: boolean) {
  return useQuery({
    ...getQuery<{ items: MyClassInvitation[] }>(myInvitationsKey, "/api/me/class-invitations"),
    enabled,
    retry: 1,
  });
}

function useStudentWrite<R>(mutationFn: (classId: string) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: classesKey }),
        client.invalidateQueries({ queryKey: ["me"] }),
      ]),
  });
}

export const useAcceptInvitation = () =>
  useStudentWrite((classId: string) =>
    api<{ class: ClassView; message: string }>("POST", `/api/classes/${classId}/invitation`),
  );

export const useDeclineInvitation = () =>
  useStudentWrite((classId: string) => api<void>("DELETE", `/api/classes/${classId}/invitation`));

export const useLeaveClass = () =>
  useStudentWrite((classId: string) => api<void>("DELETE", `/api/classes/${classId}/enrolment`));
