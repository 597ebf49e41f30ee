import type { ErrorCode } from "@gradecast/contract/errors";
import { messages } from "@gradecast/contract/messages";
import type { FastifyError, FastifyInstance } from "fastify";
import type { z } from "zod";

// The uniform error answer of DESIGN.md section 4. Handlers throw AppError; anything else is a
// fault, answered with a generic message and the request id, never a stack trace or SQL.
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, fields?: Record<string, string>) =>
  new AppError(400, "validation_failed", message, fields);
export const unauthorized = (message: string = messages.signInRequired) =>
  new AppError(401, "unauthorized", message);
export const forbidden = () => new AppError(403, "forbidden", messages.notAllowed);
export const notFound = (message: string = messages.notFound) =>
  new AppError(404, "not_found", message);
export const conflict = (message: string) => new AppError(409, "conflict", message);
export const tooManyRequests = () => new AppError(429, "rate_limited", messages.tooManyRequests);
export const unavailable = () =>
  new AppError(503, "service_unavailable", "The service is unavailable. Please try again soon.");

/** Parses input with a contract schema; a failure names each bad field. */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.length > 0 ? issue.path.join(".") : "body";
    fields[key] ??= issue.message;
  }
  const first = Object.values(fields)[0] ?? "The request is not valid.";
  throw badRequest(first, fields);
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

export function installErrorHandlers(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      return reply.code(error.status).send({
        error: {
          code: error.code,
          message: error.message,
          ...(error.fields ? { fields: error.fields } : {}),
        },
      });
    }
    const status = (error as FastifyError).statusCode ?? 500;
    const fastifyCode = (error as FastifyError).code;
    if (status === 429) {
      return reply
        .code(429)
        .send({ error: { code: "rate_limited", message: messages.tooManyRequests } });
    }
    if (status === 413 || fastifyCode === "FST_ERR_CTP_BODY_TOO_LARGE") {
      return reply.code(413).send({
        error: {
          code: "payload_too_large",
          message: "The request body is too large (1 MiB at most).",
        },
      });
    }
    if (status === 415 || fastifyCode === "FST_ERR_CTP_INVALID_MEDIA_TYPE") {
      return reply.code(415).send({
        error: { code: "unsupported_media_type", message: "Send the request body as JSON." },
      });
    }
    if (status >= 400 && status < 500) {
      return reply.code(status).send({
        error: {
          code: "validation_failed",
          message:
            fastifyCode === "FST_ERR_CTP_INVALID_JSON_BODY" || error instanceof SyntaxError
              ? "The request body is not valid JSON."
              : "The request is not valid.",
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
          message: "The service is unavailable. Please try again soon.",
          requestId: request.id,
        },
      });
    }
    request.log.error({ err: error }, "request failed");
    return reply.code(500).send({
      error: { code: "internal_error", message: messages.serverError, requestId: request.id },
    });
  });
}
