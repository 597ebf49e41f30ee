import type { Readable } from "node:stream";
import type { FastifyReply } from "fastify";

const csvType = "text/csv; charset=utf-8";

/** A download: the browser saves `body` as `fileName` instead of showing it. */
export function sendAttachment(
  reply: FastifyReply,
  fileName: string,
  body: string | Buffer | Readable,
  mediaType: string = csvType,
) {
  return reply
    .header("content-type", mediaType)
    .header("content-disposition", `attachment; filename="${fileName}"`)
    .send(body);
}

/** The day in a download's file name: `outcomes-2026-11-28.csv`. */
export const dayOf = (now: Date) => now.toISOString().slice(0, 10);
