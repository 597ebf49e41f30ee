import { isDeepStrictEqual } from "node:util";
import { type ApiRoute, apiAccess } from "@gradecast/contract/api-access";
import { apiRoutes, bodyLimitOf } from "@gradecast/contract/api-routes";
import { errorBodySchema } from "@gradecast/contract/errors";
import type { Audience } from "@gradecast/contract/roles";
import type { FastifyContextConfig, FastifyInstance, FastifySchema } from "fastify";
import type { z } from "zod";
import { DomainError } from "../domain-errors.ts";
import { validationError } from "./errors.ts";

// Route schemas (docs/decisions/0011-route-schemas.md): each route's params, query, body and
// answers come from the contract's table (api-routes.ts), through fastify-type-provider-zod's
// types. Fastify validates requests with them (a failure is the usual 400 naming each field),
// @fastify/swagger documents them, and under test every answer is checked against them.

type Contract<R extends ApiRoute> = (typeof apiRoutes)[R];

/** Errors every route may answer, whatever it does: the one error shape, { error: { code, message } }. */
const errorAnswer = errorBodySchema.describe("An error: { error: { code, message, fields? } }");

function errorStatuses(route: ApiRoute): number[] {
  const contract = apiRoutes[route] as { params?: unknown; querystring?: unknown; body?: unknown };
  const method = route.split(" ")[0];
  const anonymous = (apiAccess[route].allow as readonly Audience[]).includes("anonymous");
  const takesBody = method === "POST" || method === "PATCH";
  return [
    400,
    ...(anonymous ? [] : [401, 403]),
    ...(contract.params ? [404] : []),
    ...(takesBody ? [413, 415] : []),
    429,
    500,
    503,
  ];
}

/** "GET /api/reports/:id" → "getReportsById"; names every operation of the document. */
export function operationIdOf(route: ApiRoute): string {
  const [method = "get", url = ""] = route.split(" ");
  const words = url
    .replace(/^\/api\/?/, "")
    .split(/[/.-]/)
    .filter(Boolean)
    .map((part) => (part.startsWith(":") ? `by ${part.slice(1)}` : part))
    .flatMap((part) => part.split(" "));
  return [method.toLowerCase(), ...words.map((w) => w[0]?.toUpperCase() + w.slice(1))].join("");
}

/**
 * The schema of one route: what the contract declares, its error answers, and what the API
 * document says of it. Typed, so that the zod type provider types the handler's request.
 */
export function routeSchema<R extends ApiRoute>(route: R) {
  const { summary, response, produces, consumes, bodyLimit, ...input } = apiRoutes[
    route
  ] as RouteEntry;
  const anonymous = (apiAccess[route].allow as readonly Audience[]).includes("anonymous");
  const errors = Object.fromEntries(
    errorStatuses(route)
      .filter((status) => !(status in response))
      .map((status) => [status, errorAnswer]),
  );
  return {
    operationId: operationIdOf(route),
    summary,
    description: `Who may call: ${anonymous ? "anyone" : (apiAccess[route].allow as readonly string[]).join(", ")}.`,
    ...(anonymous ? { security: [] } : {}),
    ...(produces ? { produces: [produces] } : {}),
    ...(consumes ? { consumes: [consumes] } : {}),
    ...input,
    response: { ...response, ...errors, default: errorAnswer },
  } as unknown as Omit<Contract<R>, "summary" | "produces" | "consumes" | "response"> & {
    response: Contract<R>["response"];
  } & FastifySchema;
}

type RouteEntry = {
  summary: string;
  response: Record<number, z.ZodType>;
  produces?: string;
  consumes?: string;
  bodyLimit?: number;
  params?: z.ZodType;
  querystring?: z.ZodType;
  body?: z.ZodType;
};

/**
 * A route's options: its line of the access table, its schema and its body limit (from the
 * contract's entry), plus any other config.
 */
export function route<R extends ApiRoute, C extends object = object>(access: R, config?: C) {
  return {
    schema: routeSchema(access),
    config: { access, ...config } as FastifyContextConfig,
    bodyLimit: bodyLimitOf(access),
  };
}

declare module "fastify" {
  interface FastifyInstance {
    /** "METHOD /url" of every API route registered, for the test that the document is whole. */
    apiRouteList: readonly string[];
  }
}

export interface RouteSchemaOptions {
  /** Check every answer against its route's schema (tests): a mismatch is a 500 and a line on stderr. */
  checkResponses?: boolean;
}

export function installRouteSchemas(app: FastifyInstance, options: RouteSchemaOptions = {}) {
  // Requests: the contract's zod schemas, failures in the usual 400 shape naming each field.
  // A missing body or query is checked as {} so that each required field is named.
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const zod = schema as unknown as z.ZodType;
    return (data: unknown) => {
      const result = zod.safeParse(httpPart === "params" ? data : (data ?? {}));
      return result.success ? { value: result.data } : { error: validationError(result.error) };
    };
  });
  // Answers are written as the handlers give them; under test each is checked first, keys the
  // schema does not declare included (a field that leaks is a failure, not a silent extra).
  app.setSerializerCompiler(({ schema, method, url, httpStatus }) => {
    const zod = schema as unknown as z.ZodType;
    return (data: unknown) => {
      const json = JSON.stringify(data);
      if (options.checkResponses) {
        const plain = json === undefined ? undefined : JSON.parse(json);
        const result = zod.safeParse(plain);
        const problem = !result.success
          ? JSON.stringify(result.error.issues)
          : !isDeepStrictEqual(JSON.parse(JSON.stringify(result.data) ?? "null"), plain ?? null)
            ? `fields the schema does not declare: ${JSON.stringify(plain)}`
            : undefined;
        if (problem) {
          const message = `${method} ${url} ${httpStatus}: the answer does not match its schema: ${problem}`;
          process.stderr.write(`${message}\n`);
          throw new DomainError("internal", "internal_error", message);
        }
      }
      return json;
    };
  });
  // Every API route has a schema with a success answer: a route without one stops the app.
  const registered: string[] = [];
  app.decorate("apiRouteList", registered);
  app.addHook("onRoute", (options) => {
    // HEAD follows its GET; OPTIONS answers a browser's preflight (http/opaque-origin.ts).
    if (
      !options.url.startsWith("/api/") ||
      options.method === "HEAD" ||
      options.method === "OPTIONS"
    )
      return;
    registered.push(`${String(options.method)} ${options.url}`);
    const response = (options.schema as { response?: Record<string, unknown> } | undefined)
      ?.response;
    if (!response || !Object.keys(response).some((status) => /^2\d\d$/.test(status))) {
      throw new Error(`Route ${options.method} ${options.url} declares no success answer`);
    }
  });
}
