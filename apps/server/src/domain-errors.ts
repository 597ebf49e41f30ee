import type { ErrorCode } from "@gradecast/contract/errors";
import { messages } from "@gradecast/contract/messages";

// What a service says went wrong, in its own terms: a kind (what sort of refusal), the wire code
// of the contract, the message the user reads, the fields it concerns and how long to wait.
// Services throw these and know nothing of HTTP; http/errors.ts alone turns a kind into a status
// and headers, in the one error shape, { error: { code, message } }.

export type ErrorKind =
  | "invalid"
  | "unauthenticated"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "too_large"
  | "unsupported"
  | "limited"
  | "unavailable"
  | "internal";

export interface DomainErrorDetails {
  /** The message for each field it concerns. */
  fields?: Record<string, string>;
  /** When trying again can succeed, in milliseconds. */
  retryAfterMs?: number;
}

export class DomainError extends Error {
  readonly fields: Record<string, string> | undefined;
  readonly retryAfterMs: number | undefined;
  constructor(
    readonly kind: ErrorKind,
    readonly code: ErrorCode,
    message: string,
    details: DomainErrorDetails = {},
  ) {
    super(message);
    this.name = "DomainError";
    this.fields = details.fields;
    this.retryAfterMs = details.retryAfterMs;
  }
}

/** True for a domain error with this wire code (a wrong guess, told apart from other failures). */
export function hasCode(error: unknown, code: ErrorCode): boolean {
  return error instanceof DomainError && error.code === code;
}

export const invalid = (message: string, fields?: Record<string, string>) =>
  new DomainError("invalid", "validation_failed", message, { fields });
export const unauthenticated = (
  message: string = messages.signInRequired,
  code: ErrorCode = "unauthorized",
  fields?: Record<string, string>,
) => new DomainError("unauthenticated", code, message, { fields });
export const forbidden = (message: string = messages.notAllowed, code: ErrorCode = "forbidden") =>
  new DomainError("forbidden", code, message);
export const emailNotVerified = () => forbidden(messages.emailNotVerified, "email_not_verified");
export const notFound = (message: string = messages.notFound) =>
  new DomainError("not_found", "not_found", message);
export const conflict = (message: string, fields?: Record<string, string>) =>
  new DomainError("conflict", "conflict", message, { fields });
export const tooLarge = (message: string) =>
  new DomainError("too_large", "payload_too_large", message);
/** Over a limit; with `waitMs`, the answer says when to come back. */
export const limited = (waitMs?: number, message: string = messages.tooManyRequests) =>
  new DomainError("limited", "rate_limited", message, { retryAfterMs: waitMs });
/** Too much waiting work (password hashes): come back in a second. */
export const busy = () =>
  new DomainError("unavailable", "service_unavailable", messages.busy, { retryAfterMs: 1000 });
