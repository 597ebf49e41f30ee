import { isDeepStrictEqual } from "node:util";
import { errorBodySchema } from "@gradecast/contract/errors";
import { bodyLimitOfEntry, type RouteEntry } from "@gradecast/contract/route";
import { type ApiRoute, type RouteOf, routeByKey } from "@gradecast/contract/routes/index";
import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  FastifyContextConfig,
  FastifyInstance,
  FastifySchema,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteShorthandOptions,
} from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { z } from "zod";
import { DomainError } from "../domain-errors.ts";
import { validationError } from "./errors.ts";

// Route registration from the contract's entries (docs/decisions/0015-one-declaration-per-route.md):
// each route is served from its entry (packages/contract/src/routes/*.ts): its method and path,
// its params, query, body and answers through fastify-type-provider-zod's types, its body limit,
// and the entry itself in the route's config for the access hook. Fastify validates requests with
// the schemas (a failure is the usual 400 naming each field), @fastify/swagger documents them,
// and under test every answer is checked against them.

/** Errors every route may answer, whatever it does: the one error shape, { error: { code, message } }. */
const errorAnswer = errorBodySchema.describe("An error: { error: { code, message, fields? } }");

const anonymousMay = (entry: RouteEntry) =>
  (entry.access.allow as readonly string[]).includes("anonymous");

function errorStatuses(entry: RouteEntry): number[] {
  const takesBody = entry.method !== "GET" && entry.method !== "DELETE";
  return [
    400,
    ...(anonymousMay(entry) ? [] : [401, 403]),
    ...(entry.params ? [404] : []),
    ...(takesBody ? [413, 415] : []),
    429,
    500,
    503,
  ];
}

/** "GET /api/reports/:id" → "getReportsById"; names every operation of the document. */
export function operationIdOf(entry: Pick<RouteEntry, "method" | "path">): string {
  const words = entry.path
    .replace(/^\/api\/?/, "")
    .split(/[/.-]/)
    .filter(Boolean)
    .map((part) => (part.startsWith(":") ? `by ${part.slice(1)}` : part))
    .flatMap((part) => part.split(" "));
  return [entry.method.toLowerCase(), ...words.map((w) => w[0]?.toUpperCase() + w.slice(1))].join(
    "",
  );
}

/** The part of an entry Fastify types the handler's request and answers with. */
export type SchemaOf<E extends RouteEntry> = Pick<
  E,
  Extract<keyof E, "params" | "querystring" | "body">
> & { response: E["response"] } & FastifySchema;

/**
 * The schema of one route: what its entry declares, its error answers, and what the API
 * document says of it. Typed, so that the zod type provider types the handler's request.
 */
export function routeSchema<const E extends RouteEntry>(entry: E): SchemaOf<E>;
/** The same by the route's key (tests that name a route by what is called). */
export function routeSchema<K extends ApiRoute>(key: K): SchemaOf<RouteOf<K>>;
export function routeSchema(route: RouteEntry | ApiRoute) {
  const entry: RouteEntry = typeof route === "string" ? routeByKey[route] : route;
  const { summary, response, produces, consumes, access, params, querystring, body } = entry;
  const anonymous = anonymousMay(entry);
  const errors = Object.fromEntries(
    errorStatuses(entry)
      .filter((status) => !(status in response))
      .map((status) => [status, errorAnswer]),
  );
  return {
    operationId: operationIdOf(entry),
    summary,
    description: `Who may call: ${anonymous ? "anyone" : (access.allow as readonly string[]).join(", ")}.`,
    ...(anonymous ? { security: [] } : {}),
    ...(produces ? { produces: [produces] } : {}),
    ...(consumes ? { consumes: [consumes] } : {}),
    ...(params ? { params } : {}),
    ...(querystring ? { querystring } : {}),
    ...(body ? { body } : {}),
    response: { ...response, ...errors, default: errorAnswer },
  } as unknown as FastifySchema;
}

/** The one handler signature: the request and reply typed by the route's entry. */
export type HandlerOf<E extends RouteEntry> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  SchemaOf<E>,
  ZodTypeProvider,
  FastifyBaseLogger
>;

/** What a route may add to its entry: config (rate limits), hooks, a larger body limit. */
export type RouteExtras = Pick<
  RouteShorthandOptions,
  "preValidation" | "preHandler" | "onRequest" | "bodyLimit"
> & { config?: object };

/**
 * Serves one route from its entry: `serve(app, routes.classes.create, { config }, handler)`.
 * The access hook reads the entry from the route's config.
 */
export function serve<const E extends RouteEntry>(
  app: FastifyInstance,
  entry: E,
  ...rest: [handler: HandlerOf<E>] | [extras: RouteExtras, handler: HandlerOf<E>]
): void {
  const [extras, handler] = rest.length === 1 ? [{}, rest[0]] : rest;
  const { config, ...hooks } = extras as RouteExtras;
  app.route({
    method: entry.method,
    url: entry.path,
    schema: routeSchema(entry),
    bodyLimit: bodyLimitOfEntry(entry),
    ...hooks,
    config: { ...config, route: entry } as FastifyContextConfig,
    handler: handler as never,
  });
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
    if (!response || !Object.keys(response).some((status) => /^[23]\d\d$/.test(status))) {
      throw new Error(`Route ${options.method} ${options.url} declares no success answer`);
    }
  });
}
