import type { User } from "@gradecast/contract/auth";
import { useMutation } from "@tanstack/react-query";
import { api } from "../../api/client.ts";

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
      api<{ user: User }>("POST", "/api/auth/register", form, { auth: false }),
  });
}

export function useForgotPassword() {
  return useMutation({
    mutationFn: (email: string) =>
      api<void>("POST", "/api/auth/forgot-password", { email }, { auth: false }),
  });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: (reset: { token: string; password: string }) =>
      api<unknown>("POST", "/api/auth/reset-password", reset, { auth: false }),
  });
}
