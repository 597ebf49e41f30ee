import type { FastifyInstance } from "fastify";
import { tooLarge } from "../domain-errors.ts";

/**
 * Lets the routes of `scope` (a plugin registered for them alone) take a file's bytes as their
 * body, a Buffer, for this media type and up to `bytes`; a larger file is refused with 413 and
 * `tooLargeMessage`. Every other route still takes JSON alone, within the JSON body limit.
 */
export function acceptFileBody(
  scope: FastifyInstance,
  mediaType: string,
  bytes: number,
  tooLargeMessage: string,
): void {
  scope.addContentTypeParser(
    mediaType,
    { parseAs: "buffer", bodyLimit: bytes },
    (_request, body, done) => done(null, body),
  );
  scope.setErrorHandler((error) => {
    const e = error as { code?: string };
    if (e.code === "FST_ERR_CTP_BODY_TOO_LARGE") throw tooLarge(tooLargeMessage);
    throw error;
  });
}
