import { type FastifyReply, type FastifyRequest, LogController } from "fastify";

// One log line per request, written when the answer has gone out, instead of Fastify's two
// (one on arrival, one on completion): each line costs a serialisation and a write to stdout
// (bench/README.md has the figures). The line keeps what the arrival line told (method, the
// address with its secrets redacted, the client) beside the status and the time taken; errors
// are logged as before. Every line carries the request's id (reqId).

// Query values that are neither secret nor personal; every other value is replaced, since
// searches name students and accounts, cursors carry names, and links carry tokens and codes.
const plainQueryKeys = new Set(["limit", "sort", "pending", "review", "store", "setup", "scope"]);

/** The request as a log line shows it: no personal data, no secrets. */
export function serializeRequest(request: FastifyRequest) {
  const [pathPart = "", query] = request.url.split("?", 2);
  const shown = query
    ?.split("&")
    .map((pair) => {
      const key = pair.split("=", 1)[0] ?? "";
      return plainQueryKeys.has(key) || !pair.includes("=") ? pair : `${key}=[redacted]`;
    })
    .join("&");
  return {
    method: request.method,
    url: shown === undefined ? pathPart : `${pathPart}?${shown}`,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
export class OneLineRequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error) {
      reply.log.error(
        { req: request, res: reply, err: error, responseTime: reply.elapsedTime },
        "request errored",
      );
    } else {
      reply.log.info(
        { req: request, res: reply, responseTime: reply.elapsedTime },
        "request completed",
      );
    }
  }
}
