import { z } from "zod";

// The one error shape of every API answer that is not a success: { error: { code, message,
// fields? } }.
export const errorCodes = [
  "validation_failed",
  "invalid_credentials",
  "unauthorized",
  "forbidden",
  "email_not_verified",
  "not_found",
  "method_not_allowed",
  "conflict",
  "payload_too_large",
  "unsupported_media_type",
  "rate_limited",
  "invalid_code",
  "invalid_token",
  "account_disabled",
  "service_unavailable",
  "internal_error",
  "reauth_required",
  "mfa_enrolment_required",
  "cross_origin_refused",
  "password_sign_in_off",
  "guardian_consent_required",
  "unknown_text_version",
] as const;
export type ErrorCode = (typeof errorCodes)[number];

export const errorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
    requestId: z.string().optional(),
  }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
