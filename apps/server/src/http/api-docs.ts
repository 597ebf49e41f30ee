import { routes } from "@gradecast/contract/routes/index";
import type { FastifyInstance } from "fastify";
import { serve } from "./route-schemas.ts";

// The HTTP API described for its clients: the OpenAPI 3.1 document that
// @fastify/swagger generates from the route schemas (openapi.ts), at /api/openapi.json (and its
// former address /api/docs/openapi.json), and a page at /api/docs listing the same operations.
// Our own page rather than @fastify/swagger-ui: that needs inline scripts and styles the CSP
// refuses; this one has no script and no style.

type Operation = {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: { in: string; name: string }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses?: Record<string, { description?: string }>;
};
type Document = { paths?: Record<string, Record<string, Operation>> };

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page: every operation, who may call it, its query, its body as JSON Schema, its answers. */
function docsPage(doc: Document): string {
  const rows = Object.entries(doc.paths ?? {}).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, op]) => {
      const body = Object.entries(op.requestBody?.content ?? {})[0];
      const query = (op.parameters ?? []).filter((p) => p.in === "query");
      const answers = Object.entries(op.responses ?? {})
        .map(([status, answer]) => `${status} ${answer.description ?? ""}`.trim())
        .join(", ");
      return `<section><h2>${escapeHtml(`${method.toUpperCase()} ${path}`)}</h2><p>${escapeHtml(op.summary ?? "")} <code>${escapeHtml(op.operationId ?? "")}</code></p><p>${escapeHtml(op.description ?? "")}</p>${
        query.length > 0
          ? `<p>Query: ${query.map((p) => `<code>${escapeHtml(p.name)}</code>`).join(", ")}</p>`
          : ""
      }${
        body
          ? `<details><summary>Request body (${escapeHtml(body[0])})</summary><pre>${escapeHtml(JSON.stringify(body[1].schema, null, 2))}</pre></details>`
          : ""
      }<p>Answers: ${escapeHtml(answers)}</p></section>`;
    }),
  );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Gradecast API</title></head><body><main><h1>Gradecast API</h1><p>Every call answers JSON; errors are <code>{ "error": { "code", "message", "fields" } }</code>. Signed-in calls send <code>Authorization: Bearer &lt;ID token&gt;</code> from <code>POST /api/auth/login</code>. The same description as an OpenAPI 3.1 document: <a href="/api/openapi.json">/api/openapi.json</a>.</p>${rows.join("")}</main></body></html>`;
}

export async function apiDocsRoutes(app: FastifyInstance) {
  // Built on first use: the document is whole only once every route is registered.
  let cached: { doc: Document; page: string } | undefined;
  const built = () => {
    if (!cached) {
      const doc = app.swagger() as Document;
      cached = { doc, page: docsPage(doc) };
    }
    return cached;
  };
  for (const entry of [routes.site.openApi, routes.site.formerOpenApi]) {
    serve(app, entry, async (_request, reply) => {
      reply.header("cache-control", "public, max-age=300");
      return built().doc;
    });
  }
  serve(app, routes.site.docs, async (_request, reply) => {
    reply.header("cache-control", "public, max-age=300");
    return reply.type("text/html; charset=utf-8").send(built().page);
  });
}
