import { questionByKey } from "@gradecast/contract/questionnaire";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect } from "vitest";
import { apiTests } from "../support/fixtures.ts";
import { dialects } from "../support/helpers.ts";

// The API document is generated from the route schemas (docs/decisions/0011-route-schemas.md):
// it must be a valid OpenAPI 3.1 document naming every route the app serves, with the answers
// and the input rules a client generator needs. Every other API test checks the real answers
// against it (helpers.ts turns on checkResponses).

type Schema = {
  type?: string | string[];
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  pattern?: string;
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
};
type Operation = {
  operationId?: string;
  summary?: string;
  security?: unknown[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  parameters?: { in: string; name: string; schema: Schema }[];
  responses: Record<string, { content?: Record<string, { schema: Schema }>; links?: object }>;
};
type Document = { openapi: string; paths: Record<string, Record<string, Operation>> };

const tests = apiTests();

describe.each(dialects)("the API document (%s)", (dialect) => {
  const test = tests[dialect];
  let doc: Document;
  const operation = (method: string, path: string) => {
    const op = doc.paths[path]?.[method];
    if (!op) throw new Error(`${method} ${path} is not in the document`);
    return op;
  };

  test.beforeAll(async ({ t }) => {
    const res = await t.app.inject({ method: "GET", url: "/api/openapi.json" });
    expect(res.statusCode).toBe(200);
    doc = res.json();
  });

  test("passes an OpenAPI 3.1 validator", async () => {
    expect(doc.openapi).toBe("3.1.0");
    const result = await new Validator().validate(structuredClone(doc) as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  test("names every route the app registers, with an operationId, a summary and a success body", ({
    t,
  }) => {
    expect(t.app.apiRouteList.length).toBeGreaterThan(60);
    const ids = new Set<string>();
    for (const route of t.app.apiRouteList) {
      const [method = "", url = ""] = route.split(" ");
      const op = operation(method.toLowerCase(), url.replace(/:(\w+)/g, "{$1}"));
      expect(op.operationId, route).toMatch(/^[a-z][A-Za-z]+$/);
      expect(op.summary, route).toBeTruthy();
      ids.add(op.operationId ?? "");
      // A page navigation (sign-in with the school's provider) succeeds with a redirect.
      const success = Object.entries(op.responses).filter(([status]) => /^[23]\d\d$/.test(status));
      expect(success.length, route).toBeGreaterThan(0);
      // 204 and redirects have no body; every other success documents its body's schema.
      for (const [status, answer] of success) {
        if (status !== "204" && !status.startsWith("3"))
          expect(Object.keys(answer.content ?? {}), route).not.toEqual([]);
      }
      // Errors have the one error shape.
      expect(op.responses.default?.content?.["application/json"]?.schema.required, route).toEqual([
        "error",
      ]);
    }
    expect(ids.size).toBe(t.app.apiRouteList.length);
  });

  test("marks anonymous calls as such and the others as needing the ID token", () => {
    expect(operation("post", "/api/auth/login").security).toEqual([]);
    expect(operation("get", "/api/health").security).toEqual([]);
    expect(operation("get", "/api/me").security).toBeUndefined();
    expect((doc as { security?: unknown }).security).toEqual([{ idToken: [] }]);
    expect(Object.keys(operation("get", "/api/me").responses)).toContain("401");
  });

  test("gives every questionnaire answer its enum or range", () => {
    const body = operation("post", "/api/students").requestBody?.content["application/json"]
      ?.schema as Schema;
    const properties = body.properties ?? {};
    expect(Object.keys(properties)).toHaveLength(31);
    // The school is the deployment's (issue 28): documented as such, one of the two or null.
    expect(properties.school?.anyOf?.find((s) => s.enum)?.enum).toEqual(["GP", "MS"]);
    expect(properties.school?.description).toMatch(/MODEL_SCHOOL/);
    expect(properties.sex?.enum).toEqual(["F", "M"]);
    const ages = questionByKey.age.options.map((o) => o.value);
    const age = properties.age?.anyOf?.find((s) => s.type === "integer");
    expect(age).toMatchObject({ minimum: ages[0], maximum: ages.at(-1) });
    const absences = properties.absences?.anyOf?.find((s) => s.type === "string");
    expect(absences?.pattern).toBeTruthy();
    // G1 may be null (not known yet); age may not.
    expect(properties.G1?.anyOf?.some((s) => s.type === "null")).toBe(true);
    expect(properties.age?.anyOf?.some((s) => s.type === "null")).toBe(false);
    for (const [key, schema] of Object.entries(properties)) {
      const constrained =
        schema.enum !== undefined ||
        (schema.anyOf ?? []).some((s) => s.enum !== undefined || s.maximum !== undefined);
      expect(constrained, key).toBe(true);
    }
    // The prediction answer documents its range and band too.
    const answer = operation("post", "/api/predict").responses["200"]?.content?.["application/json"]
      ?.schema as Schema;
    expect(answer.properties?.prediction).toMatchObject({ minimum: 0, maximum: 20 });
    expect(answer.properties?.band?.enum).toEqual(["improve", "good", "congratulations"]);
  });

  test("links one call's answer to the next (register → login, create a report → read it)", () => {
    const register = operation("post", "/api/auth/register").responses["201"]?.links;
    expect(register).toMatchObject({ login: { operationId: "postAuthLogin" } });
    const report = operation("post", "/api/reports").responses["201"]?.links;
    expect(report).toMatchObject({
      getReport: { operationId: "getReportsById", parameters: { id: "$response.body#/report/id" } },
    });
  });

  test("lists the same operations on the page at /api/docs, and answers at the former address", async ({
    t,
  }) => {
    const page = await t.app.inject({ method: "GET", url: "/api/docs" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toContain("text/html");
    expect(page.body).toContain("POST /api/auth/register");
    expect(page.body).toContain("postAuthRegister");
    expect(page.body).not.toContain("<script");
    const old = await t.app.inject({ method: "GET", url: "/api/docs/openapi.json" });
    expect(old.json()).toEqual(doc);
  });
});
