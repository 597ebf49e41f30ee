import { type ApiRoute, apiAccess } from "@gradecast/contract/api-access";
import { apiSchemas } from "@gradecast/contract/api-schemas";
import type { Audience } from "@gradecast/contract/roles";
import type { FastifyInstance } from "fastify";
import { z } from "zod";

// The HTTP API described for its clients (DESIGN.md section 2): an OpenAPI 3.1 document built at
// start from the contract's access table and the very schemas the server parses requests with,
// at /api/docs/openapi.json, and a page at /api/docs that lists the same. Written here rather
// than with @fastify/swagger: our routes parse with zod inside the handlers (one schema on both
// sides), so there are no Fastify route schemas for it to read, and its UI needs inline scripts
// and styles that the CSP refuses.

type Operation = Record<string, unknown>;

const jsonSchema = (schema: z.ZodType) => {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
  return rest;
};

function whoMayCall(route: ApiRoute): string {
  const allow = apiAccess[route].allow as readonly Audience[];
  return allow.includes("anonymous") ? "anyone" : allow.join(", ");
}

/** The API's own version: it changes when a route or a schema changes incompatibly. */
const apiVersion = "1";

export function openApiDocument() {
  const paths: Record<string, Record<string, Operation>> = {};
  for (const route of Object.keys(apiAccess) as ApiRoute[]) {
    const [method = "GET", url = "/"] = route.split(" ");
    const path = url.replace(/:(\w+)/g, "{$1}");
    const schemas = apiSchemas[route];
    const allow = apiAccess[route].allow as readonly Audience[];
    const query = schemas?.query ? jsonSchema(schemas.query) : undefined;
    const operation: Operation = {
      summary: route,
      description: `Who may call: ${whoMayCall(route)}.`,
      ...(allow.includes("anonymous") ? { security: [] } : {}),
      parameters: [
        ...[...url.matchAll(/:(\w+)/g)].map((m) => ({
          name: m[1],
          in: "path",
          required: true,
          schema: { type: "string" },
        })),
        ...Object.entries((query?.properties ?? {}) as Record<string, unknown>).map(
          ([name, schema]) => ({ name, in: "query", schema }),
        ),
      ],
      ...(schemas?.body
        ? {
            requestBody: {
              required: true,
              content: { "application/json": { schema: jsonSchema(schemas.body) } },
            },
          }
        : {}),
      responses: {
        "2XX": { description: "Success." },
        default: {
          description: "An error: { error: { code, message, fields? } }.",
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        },
      },
    };
    paths[path] = { ...paths[path], [method.toLowerCase()]: operation };
  }
  return {
    openapi: "3.1.0",
    info: { title: "Gradecast API", version: apiVersion },
    servers: [{ url: "/" }],
    security: [{ idToken: [] }],
    components: {
      securitySchemes: {
        idToken: { type: "http", scheme: "bearer", bearerFormat: "JWT (EdDSA, 15 minutes)" },
      },
      schemas: {
        Error: {
          type: "object",
          required: ["error"],
          properties: {
            error: {
              type: "object",
              required: ["code", "message"],
              properties: {
                code: { type: "string" },
                message: { type: "string" },
                fields: { type: "object", additionalProperties: { type: "string" } },
              },
            },
          },
        },
      },
    },
    paths,
  };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page: every route, who may call it, and its request as JSON Schema. No script, no style. */
function docsPage(doc: ReturnType<typeof openApiDocument>): string {
  const rows = Object.entries(doc.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, op]) => {
      const body = (op.requestBody as { content: Record<string, { schema: unknown }> } | undefined)
        ?.content["application/json"]?.schema;
      const query = (op.parameters as { in: string; name: string }[]).filter(
        (p) => p.in === "query",
      );
      return `<section><h2>${escapeHtml(`${method.toUpperCase()} ${path}`)}</h2><p>${escapeHtml(String(op.description))}</p>${
        query.length > 0
          ? `<p>Query: ${query.map((p) => `<code>${escapeHtml(p.name)}</code>`).join(", ")}</p>`
          : ""
      }${body ? `<details><summary>Request body (JSON Schema)</summary><pre>${escapeHtml(JSON.stringify(body, null, 2))}</pre></details>` : ""}</section>`;
    }),
  );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Gradecast API</title></head><body><main><h1>Gradecast API</h1><p>Every call answers JSON; errors are <code>{ "error": { "code", "message", "fields" } }</code>. Signed-in calls send <code>Authorization: Bearer &lt;ID token&gt;</code> from <code>POST /api/auth/login</code>. The same description as an OpenAPI 3.1 document: <a href="/api/docs/openapi.json">/api/docs/openapi.json</a>.</p>${rows.join("")}</main></body></html>`;
}

export async function apiDocsRoutes(app: FastifyInstance) {
  const doc = openApiDocument();
  const page = docsPage(doc);
  app.get(
    "/api/docs/openapi.json",
    { config: { access: "GET /api/docs/openapi.json" } },
    async (_request, reply) => {
      reply.header("cache-control", "public, max-age=300");
      return doc;
    },
  );
  app.get("/api/docs", { config: { access: "GET /api/docs" } }, async (_request, reply) => {
    reply.header("cache-control", "public, max-age=300");
    return reply.type("text/html; charset=utf-8").send(page);
  });
}
