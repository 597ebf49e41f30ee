import { messages } from "@gradecast/contract/messages";
import { routeList } from "@gradecast/contract/routes/index";
import type { FastifyInstance } from "fastify";
import type { z } from "zod";
import { invalid } from "../domain-errors.ts";

// A body key the route does not take is refused by name (400), for every route whose body the
// contract describes (its entry in routes/*.ts): a client that sends `role` to PATCH /api/me learns it was not applied,
// instead of a silent 200. Read from the same schemas the services parse with.
function keysOf(schema: z.ZodType): Set<string> | undefined {
  const def = (schema as { _zod?: { def?: { type?: string; shape?: object; in?: z.ZodType } } })
    ._zod?.def;
  if (def?.type === "object" && def.shape) return new Set(Object.keys(def.shape));
  if (def?.type === "pipe" && def.in) return keysOf(def.in);
  return undefined;
}

export function installUnknownKeyGuard(app: FastifyInstance) {
  const known = new Map<string, Set<string>>();
  for (const entry of routeList) {
    const body = (entry as { body?: z.ZodType }).body;
    const keys = body ? keysOf(body) : undefined;
    if (keys) known.set(entry.key, keys);
  }
  app.addHook("preValidation", async (request) => {
    const entry = request.routeOptions.config.route;
    const keys = entry ? known.get(entry.key) : undefined;
    const body = request.body;
    if (!keys || body === null || typeof body !== "object" || Array.isArray(body)) return;
    const unknown = Object.keys(body).filter((key) => !keys.has(key));
    if (unknown.length === 0) return;
    const message = messages.unknownFields(unknown);
    throw invalid(message, Object.fromEntries(unknown.map((key) => [key, message])));
  });
}
