import { useMutation } from "@tanstack/react-query";
import { call } from "../../api/client.ts";

// The calls made before anyone is signed in: creating an account, asking for a password-reset
// link, and choosing the new password. None sends a token, and none changes a cached answer
// (the cache belongs to a signed-in user).

export interface Registration {
  name: string;
  email: string;
  password: string;
  role: string;
  /** YYYY-MM-DD; asked of a student only where the legal basis is consent (empty otherwise). */
  dateOfBirth?: string;
}

export function useRegister() {
  return useMutation({
    mutationFn: ({ dateOfBirth, ...form }: Registration) =>
      call(
        "POST /api/auth/register",
        {
          body: {
            ...form,
            // The form's select offers only these two roles.
            role: form.role === "teacher" ? "teacher" : "student",
            // Sent only when asked and given: the server then says beside the field what is wrong.
            ...(dateOfBirth ? { dateOfBirth } : {}),
          },
        },
        { auth: false },
      ),
  });
}

export function useForgotPassword() {
  return useMutation({
    mutationFn: (email: string) =>
      call("POST /api/auth/forgot-password", { body: { email } }, { auth: false }),
  });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: (reset: { token: string; password: string }) =>
      call("POST /api/auth/reset-password", { body: reset }, { auth: false }),
  });
}
