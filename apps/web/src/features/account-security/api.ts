import type {
  ChangeEmailAnswer,
  MfaStatus,
  SessionInfo,
  TotpEnrolment,
} from "@gradecast/contract/account-security";
import type { User } from "@gradecast/contract/auth";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, call } from "../../api/client.ts";
import { getQuery } from "../../api/queries.ts";
import { useSession } from "../../auth/session.tsx";

// The signed-in person's own account: name, password, email address and its verification,
// two-step login, sessions, and the password confirmation before a sensitive change. Reads
// are queries; each write is a mutation that updates or refetches what it changed. A write that
// may need the password confirmed first is run by the caller through useReauth's `run`.

const mfaKey = ["me", "mfa"] as const;
const sessionsKey = ["me", "sessions"] as const;

/** The session takes the user the server answered with. */
function useKeepUser() {
  const { setUser } = useSession();
  return (user: User) => setUser(user);
}

/** Runs an action, asking to confirm the password first when the server wants it. */
export type Confirmed = <T>(action: () => Promise<T>) => Promise<T>;

export function useUpdateName() {
  const keep = useKeepUser();
  return useMutation({
    mutationFn: (name: string) => api<User>("PATCH", "/api/me", { name }),
    onSuccess: keep,
  });
}

export interface PasswordChange {
  currentPassword: string;
  newPassword: string;
}

export function useChangePassword(confirmed: Confirmed) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: PasswordChange) =>
      confirmed(() => api<void>("POST", "/api/me/password", change)),
    // The other devices are signed out.
    onSuccess: () => client.invalidateQueries({ queryKey: sessionsKey }),
  });
}

export function useChangeEmail(confirmed: Confirmed) {
  const keep = useKeepUser();
  return useMutation({
    mutationFn: (email: string) =>
      confirmed(() => api<ChangeEmailAnswer>("PATCH", "/api/me/email", { email })),
    onSuccess: (answer) => keep(answer.user),
  });
}

/** The emailed code; once taken, the session and every screen see the address verified. */
export function useVerifyEmail() {
  const { refresh } = useSession();
  return useMutation({
    mutationFn: (code: string) => call("POST /api/verify", { body: { code } }),
    onSuccess: async () => {
      await refresh().catch(() => null);
    },
  });
}

export function useResendCode() {
  return useMutation({ mutationFn: () => call("POST /api/verify/resend") });
}

/** The password (and code) that lets a sensitive change through for a few minutes. */
export function useConfirmPassword() {
  return useMutation({
    mutationFn: (proof: { password: string; code?: string }) =>
      api<void>("POST", "/api/auth/reauth", proof),
  });
}

export function useMfaStatus(enabled = true) {
  return useQuery({ ...getQuery<MfaStatus>(mfaKey, "/api/me/mfa"), enabled });
}

export function useStartMfa() {
  return useMutation({ mutationFn: () => api<TotpEnrolment>("POST", "/api/me/mfa/totp") });
}

export function useConfirmMfa() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => call("POST /api/me/mfa/totp/confirm", { body: { code } }),
    onSuccess: () => client.invalidateQueries({ queryKey: mfaKey }),
  });
}

export function useTurnOffMfa(confirmed: Confirmed) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => confirmed(() => call("DELETE /api/me/mfa")),
    onSuccess: () => client.invalidateQueries({ queryKey: mfaKey }),
  });
}

export function useSessions() {
  return useQuery(getQuery<{ sessions: SessionInfo[] }>(sessionsKey, "/api/me/sessions"));
}

/** Ends one other session, or (null) every other one. */
export function useEndSession() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string | null) =>
      api<void>("DELETE", id ? `/api/me/sessions/${id}` : "/api/me/sessions"),
    onSuccess: () => client.invalidateQueries({ queryKey: sessionsKey }),
  });
}
