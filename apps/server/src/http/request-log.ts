import { type FastifyReply, type FastifyRequest, LogController } from "fastify";

// One log line per request, written when the answer has gone out, instead of Fastify's two
// (one on arrival, one on completion): each line costs a serialisation and a write to stdout
// (bench/README.md has the figures). The line keeps what the arrival line told (method, the
// address with its secrets redacted, the client) beside the status and the time taken; errors
// are logged as before. Every line carries the request's id (reqId).

// Query values that are neither secret nor personal; every other value is replaced, since
// searches name students and accounts, cursors carry names, and links carry tokens and codes.
const plainQueryKeys = new Set(["limit", "sort", "pending", "review", "store", "setup", "scope"]);

// Path parameters that are ids; any other (an invitation's email) is shown as [redacted].
const plainParams = new Set(["id", "uid"]);

/**
 * The path with its personal parameters redacted, read against the route's pattern: a segment
 * whose parameter is not an id (DELETE …/invitations/:email names a pupil) is not logged.
 */
function shownPath(path: string, pattern: string | undefined): string {
  if (!pattern?.includes(":")) return path;
  const parts = path.split("/");
  const names = pattern.split("/");
  // A pattern this cannot line up with the path (none today) is logged as the pattern itself.
  if (parts.length !== names.length) return pattern;
  return names
    .map((name, i) =>
      name.startsWith(":") && !plainParams.has(name.slice(1)) ? "[redacted]" : parts[i],
    )
    .join("/");
}

/** The request as a log line shows it: no personal data, no secrets. */
export function serializeRequest(request: FastifyRequest) {
  const [rawPath = "", query] = request.url.split("?", 2);
  const pathPart = shownPath(rawPath, request.routeOptions?.url);
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
