import { z } from "zod";
import { healthSchema } from "../api-responses.ts";
import { anyone, defineRoute } from "../route.ts";
import { setupStateSchema, siteInfoSchema } from "../site.ts";

// The installation itself and this API's own description: open to anyone.
const openApiDocument = z.record(z.string(), z.unknown());

export const health = defineRoute({
  method: "GET",
  path: "/api/health",
  access: anyone,
  summary: "Whether the database and the model answer (503 with the same shape when not)",
  response: { 200: healthSchema, 503: healthSchema },
});

export const site = defineRoute({
  method: "GET",
  path: "/api/site",
  access: anyone,
  summary: "The school's name and contact address",
  response: { 200: siteInfoSchema },
});

export const setup = defineRoute({
  method: "GET",
  path: "/api/setup",
  access: anyone,
  summary: "Whether this installation has an admin yet",
  response: { 200: setupStateSchema },
});

export const docs = defineRoute({
  method: "GET",
  path: "/api/docs",
  access: anyone,
  summary: "This API described as a page",
  response: { 200: z.string() },
  produces: "text/html",
});

export const formerOpenApi = defineRoute({
  method: "GET",
  path: "/api/docs/openapi.json",
  access: anyone,
  summary: "This API as an OpenAPI 3.1 document (former address)",
  response: { 200: openApiDocument },
});

export const openApi = defineRoute({
  method: "GET",
  path: "/api/openapi.json",
  access: anyone,
  summary: "This API as an OpenAPI 3.1 document",
  response: { 200: openApiDocument },
});
