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
}

export function useRegister() {
  return useMutation({
    mutationFn: (form: Registration) =>
      call(
        "POST /api/auth/register",
        // The form's select offers only these two roles.
        { body: { ...form, role: form.role === "teacher" ? "teacher" : "student" } },
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
