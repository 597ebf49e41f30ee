import { messages } from "@gradecast/contract/messages";
import type { FastifyInstance } from "fastify";
import { invalid } from "../domain-errors.ts";

// PostgreSQL cannot store U+0000 in text, so a NUL in any field would fail deep in a query. One
// check at the edge, for every route present and future, answers it as the bad input it is.
function findNul(value: unknown, path: string, depth = 0): string | undefined {
  if (typeof value === "string") return value.includes("\u0000") ? path : undefined;
  if (depth > 8 || value === null || typeof value !== "object") return undefined;
  // An uploaded file's bytes (a roster's CSV) are read by their own parser, which refuses what it
  // cannot store; walked here a byte at a time, 512 KB held the server for half a second.
  if (ArrayBuffer.isView(value)) return undefined;
  for (const [key, inner] of Object.entries(value)) {
    const found = findNul(inner, path ? `${path}.${key}` : key, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

export function installNulGuard(app: FastifyInstance) {
  app.addHook("preValidation", async (request) => {
    const field = findNul(request.query, "") ?? findNul(request.body, "");
    if (field !== undefined)
      throw invalid(messages.textNul, { [field || "body"]: messages.textNul });
  });
}
