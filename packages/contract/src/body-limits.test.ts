import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { ApiRoute } from "./api-access.ts";
import { apiRoutes, bodyLimitOf, defaultBodyLimit, type RouteContract } from "./api-routes.ts";
import { escapedJson, largestNote, largestQuestionnaire, largestReport } from "./largest-bodies.ts";

// Each route's body limit (api-routes.ts) fits its content: at least a fifth above its largest
// valid body written with every character escaped, and a few KB unless that body needs more.

type JsonSchema = {
  type?: string | string[];
  maxLength?: number;
  maxItems?: number;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
};

/** The most bytes a value of this schema takes in escaped JSON; Infinity when nothing bounds it. */
function mostBytes(schema: JsonSchema): number {
  const options = schema.anyOf ?? schema.oneOf;
  if (options) return Math.max(...options.map(mostBytes));
  if (schema.enum) return Math.max(...schema.enum.map((v) => escapedJson(v).length));
  if (schema.const !== undefined) return escapedJson(schema.const).length;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return Math.max(
    ...types.map((type) => {
      if (type === "string") return 2 + 6 * (schema.maxLength ?? Number.POSITIVE_INFINITY);
      if (type === "number" || type === "integer") return 24;
      if (type === "boolean" || type === "null") return 5;
      if (type === "array" && schema.items) {
        return 2 + (schema.maxItems ?? Number.POSITIVE_INFINITY) * (mostBytes(schema.items) + 1);
      }
      if (type === "object") {
        const fields = Object.entries(schema.properties ?? {});
        return fields.reduce((n, [k, v]) => n + escapedJson(k).length + 2 + mostBytes(v), 2);
      }
      return Number.POSITIVE_INFINITY;
    }),
  );
}

/** Bodies the schema alone does not bound (its checks are code or patterns), written out. */
const largest: Partial<Record<ApiRoute, object>> = {
  "POST /api/students": largestQuestionnaire,
  "POST /api/predict": largestQuestionnaire,
  "POST /api/reports": largestReport,
  "PATCH /api/reports/:id": largestReport,
  "POST /api/classes/:id/students/:uid/notes": largestNote,
  "POST /api/verify": { code: "123456" },
};

const withBodies = Object.entries(apiRoutes).flatMap(([route, entry]) => {
  const body = (entry as RouteContract).body;
  return body ? [{ route: route as ApiRoute, body }] : [];
});

describe("request body limits", () => {
  it.each(withBodies)("fit $route", ({ route, body }) => {
    const sample = largest[route];
    if (sample) expect(body.safeParse(JSON.parse(escapedJson(sample))).success).toBe(true);
    const most = sample
      ? escapedJson(sample).length
      : mostBytes(z.toJSONSchema(body, { io: "input", unrepresentable: "any" }) as JsonSchema);
    expect(most, "nothing bounds this body: add its largest to the list").toBeLessThan(
      Number.POSITIVE_INFINITY,
    );
    const limit = bodyLimitOf(route);
    expect(most * 1.2).toBeLessThanOrEqual(limit);
    expect(limit).toBeLessThanOrEqual(Math.max(defaultBodyLimit, 2 * most));
  });
});
