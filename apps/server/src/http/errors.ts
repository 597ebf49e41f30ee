import { messages } from "@gradecast/contract/messages";
import type { FastifyError, FastifyInstance, FastifyReply } from "fastify";
import type { z } from "zod";
import { DomainError, type ErrorKind, invalid, limited, tooLarge } from "../domain-errors.ts";
import { translateMessage } from "../i18n/translate.ts";
import { localeOf } from "./locale.ts";

// The uniform error answer, { error: { code, message } }, in one place: a DomainError's kind becomes
// its status (and a wait its Retry-After header); Fastify's own refusals (a body too large or
// not JSON) get the same shape. Anything else is a fault, answered with a generic message and
// the request id, never a stack trace or SQL.

const statusOf: Record<ErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unsupported: 415,
  limited: 429,
  internal: 500,
  unavailable: 503,
};

/** Sends a domain error as its status, headers and error body. */
export function sendDomainError(reply: FastifyReply, error: DomainError) {
  if (error.retryAfterMs !== undefined) {
    reply.header("retry-after", String(Math.max(1, Math.ceil(error.retryAfterMs / 1000))));
  }
  // The code never changes; the message and each field's message follow the caller's language.
  const locale = localeOf(reply.request);
  const fields = error.fields
    ? Object.fromEntries(
        Object.entries(error.fields).map(([key, text]) => [key, translateMessage(text, locale)]),
      )
    : undefined;
  return reply.code(statusOf[error.kind]).send({
    error: {
      code: error.code,
      message: translateMessage(error.message, locale),
      ...(fields ? { fields } : {}),
    },
  });
}

/** The 400 answer for input a route schema refused (route-schemas.ts): it names each bad field. */
export function validationError(error: z.ZodError): DomainError {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length > 0 ? issue.path.join(".") : "body";
    fields[key] ??= issue.message;
  }
  const first = Object.values(fields)[0] ?? messages.requestInvalid;
  return invalid(first, fields);
}

/**
 * True when an error means the server cannot reach the database, or the Redis that holds the
 * rate-limit counters (ioredis, with its offline queue off, fails at once while disconnected).
 */
export function isBackendDown(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | undefined;
  if (!e) return false;
  const code = e.code ?? "";
  return (
    [
      "ECONNREFUSED",
      "ECONNRESET",
      "ETIMEDOUT",
      "EPIPE",
      "57P01",
      "57P03",
      "08006",
      "08001",
    ].includes(code) ||
    /Connection terminated|Query read timeout|timeout exceeded when trying to connect|connection.*closed|not queryable|driver has already been destroyed|Stream isn't writeable|MaxRetriesPerRequest/i.test(
      e.message ?? "",
    )
  );
}

/** Fastify's refusals of a request before any route ran (413, 415, 429), as domain errors. */
function refusal(error: FastifyError, bodyLimit: number): DomainError | undefined {
  const status = error.statusCode;
  if (status === 429) return limited();
  if (status === 413 || error.code === "FST_ERR_CTP_BODY_TOO_LARGE") {
    return tooLarge(messages.bodyTooLarge(bodyLimit / 1024));
  }
  if (status === 415 || error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") {
    return new DomainError("unsupported", "unsupported_media_type", messages.bodyNotJsonMedia);
  }
  return undefined;
}

export function installErrorHandlers(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | DomainError, request, reply) => {
    if (error instanceof DomainError) return sendDomainError(reply, error);
    const bodyLimit = request.routeOptions.bodyLimit ?? app.initialConfig.bodyLimit ?? 0;
    const refused = refusal(error, bodyLimit);
    if (refused) return sendDomainError(reply, refused);
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const badJson =
        error.code === "FST_ERR_CTP_INVALID_JSON_BODY" || error instanceof SyntaxError;
      return reply.code(status).send({
        error: {
          code: "validation_failed",
          message: translateMessage(
            badJson ? messages.bodyInvalidJson : messages.requestInvalid,
            localeOf(request),
          ),
        },
      });
    }
    if (isBackendDown(error)) {
      // One short line per call: an outage under load must not flood the log with stacks.
      const e = error as { code?: string; message?: string };
      request.log.warn({ cause: e.code ?? e.message }, "database or Redis unavailable");
      return reply.code(503).send({
        error: {
          code: "service_unavailable",
          message: translateMessage(messages.serviceUnavailable, localeOf(request)),
          requestId: request.id,
        },
      });
    }
    request.log.error({ err: error }, "request failed");
    return reply.code(500).send({
      error: {
        code: "internal_error",
        message: translateMessage(messages.serverError, localeOf(request)),
        requestId: request.id,
      },
    });
  });
}
