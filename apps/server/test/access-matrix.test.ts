import { type ApiRoute, apiAccess, type Scope } from "@gradecast/contract/api-access";
import { messages } from "@gradecast/contract/messages";
import type { Audience } from "@gradecast/contract/roles";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../src/auth/passwords.ts";
import { randomIp, type SignedInUser, signIn, uniqueEmail } from "./accounts.ts";
import { createTestApp, dialects, type TestApp } from "./helpers.ts";

// The authorisation matrix (issue 8), generated from the contract's table: every API route x
// anonymous, student, teacher and admin, and for routes with a record scope, the caller's own
// record and another's. A refused cell must answer 401 (anonymous) or 403 (wrong role or
// another's record) and change nothing in any table; an allowed cell must get past the access
// hook (any answer but the hook's 401/403, and no 5xx). The test also fails when the app
// serves an API route the table does not name, or the table names a route the app lacks.

const audiences: readonly Audience[] = ["anonymous", "student", "teacher", "admin"];
const routes = Object.keys(apiAccess) as ApiRoute[];

type Rule = { allow: readonly Audience[]; scope?: Partial<Record<Audience, Scope>> };
const ruleOf = (route: ApiRoute) => apiAccess[route] as Rule;

/** API routes as the app serves them ("METHOD /path"), read from Fastify's route tree. */
function servedRoutes(tree: string): string[] {
  const found: string[] = [];
  const stack: string[] = [];
  for (const line of tree.split("\n")) {
    const match = /^([│ ]*)[├└]── (.*)$/u.exec(line);
    if (!match) continue;
    const depth = Math.round((match[1] ?? "").length / 4);
    const text = match[2] ?? "";
    const paren = text.lastIndexOf(" (");
    const segment = paren >= 0 && text.endsWith(")") ? text.slice(0, paren) : text;
    const methods =
      paren >= 0 && text.endsWith(")")
        ? text
            .slice(paren + 2, -1)
            .split(",")
            .map((m) => m.trim())
        : [];
    stack.length = depth;
    const full = (stack[depth - 1] ?? "") + segment;
    stack[depth] = full;
    if (!full.startsWith("/api/")) continue;
    for (const method of methods) {
      if (method === "HEAD" || method === "OPTIONS") continue;
      found.push(`${method} ${full}`);
    }
  }
  return found;
}

describe.each(dialects)("authorisation matrix (%s)", (dialect) => {
  let t: TestApp;
  const users = {} as Record<Exclude<Audience, "anonymous">, SignedInUser>;
  let otherTeacher: SignedInUser;
  let otherStudent: SignedInUser;
  let tables: string[] = [];

  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { RATE_LIMITS: "off" } });
    users.student = await signIn(t, "student");
    users.teacher = await signIn(t, "teacher");
    users.admin = await signIn(t, "admin");
    otherTeacher = await signIn(t, "teacher", { name: "Other Teacher" });
    otherStudent = await signIn(t, "student", { name: "Other Student" });
    const rows = await sql<{ name: string }>`
      select table_name as name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE'
        and table_name not like 'kysely_%'
      order by table_name`.execute(t.database.db);
    tables = rows.rows.map((r) => r.name);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** One fingerprint of every row of every table: equal before and after means nothing changed. */
  async function fingerprint(): Promise<string> {
    const parts = tables.map(
      (name) =>
        sql<string>`(select md5(coalesce(string_agg(x::text, '|' order by x::text), '')) from ${sql.table(name)} x)`,
    );
    const row = await sql<{ f: string }>`select concat_ws(',', ${sql.join(parts)}) as f`.execute(
      t.database.db,
    );
    return row.rows[0]?.f ?? "";
  }

  async function newReport(authorId: string): Promise<string> {
    const row = await t.database.db
      .insertInto("student_reports")
      .values({
        author_id: authorId,
        student_name: "Matrix Pupil",
        course: "Maths",
        marks: 50,
        attendance: 90,
        assignments: 3,
        behavior: "Good",
        feedback: "Fine.",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async function newUser(): Promise<string> {
    const row = await t.database.db
      .insertInto("users")
      .values({
        name: "Matrix Target",
        email: uniqueEmail("target"),
        password_hash: await hashPassword("matrix target password"),
        role: "student",
        pending_role: null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async function newQuestionnaire(userId: string): Promise<string> {
    const row = await t.database.db
      .insertInto("students")
      .values({
        user_id: userId,
        school: "GP",
        sex: "F",
        age: 16,
        address: "U",
        famsize: "GT3",
        pstatus: "T",
        medu: 2,
        fedu: 2,
        mjob: "other",
        fjob: "other",
        reason: "course",
        guardian: "mother",
        traveltime: 1,
        studytime: 2,
        failures: 0,
        schoolsup: "no",
        famsup: "yes",
        paid: "no",
        activities: "yes",
        nursery: "yes",
        higher: "yes",
        internet: "yes",
        romantic: "no",
        famrel: 4,
        freetime: 3,
        goout: 3,
        health: 4,
        absences: 2,
        g1: 12,
        g2: 12,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async function newPrediction(userId: string): Promise<string> {
    const row = await t.database.db
      .insertInto("predictions")
      .values({
        user_id: userId,
        inputs: JSON.stringify({}),
        score: 12,
        raw_score: 12,
        interval_low: 10,
        interval_high: 14,
        extrapolation: false,
        model_version: "matrix",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** The record a cell acts on, for a route with a path parameter. */
  async function urlFor(route: ApiRoute, owner: SignedInUser | undefined): Promise<string> {
    const path = route.slice(route.indexOf(" ") + 1);
    if (path.includes(":id")) {
      return path.replace(":id", await newReport((owner ?? otherTeacher).user.uid));
    }
    if (path.includes(":uid")) return path.replace(":uid", await newUser());
    return path;
  }

  async function call(route: ApiRoute, url: string, who: Audience) {
    const method = route.slice(0, route.indexOf(" ")) as "GET" | "POST" | "PATCH" | "DELETE";
    return t.app.inject({
      method,
      url,
      remoteAddress: randomIp(),
      headers: who === "anonymous" ? {} : users[who].auth,
      ...(method === "POST" || method === "PATCH" ? { payload: {} } : {}),
    });
  }

  function isHookRefusal(res: { statusCode: number; body: string }): boolean {
    if (res.statusCode === 403) return true;
    if (res.statusCode !== 401) return false;
    const error = (JSON.parse(res.body) as { error?: { code?: string; message?: string } }).error;
    return error?.code === "unauthorized" && error.message === messages.signInRequired;
  }

  it("names exactly the API routes the app serves", () => {
    const served = servedRoutes(t.app.printRoutes({ commonPrefix: false })).sort();
    // The parser of the route tree must see the routes Fastify says it has.
    for (const route of served) {
      const [method, url] = route.split(" ") as [string, string];
      expect(t.app.hasRoute({ method: method as "GET", url }), route).toBe(true);
    }
    const missingFromTable = served.filter((r) => !(r in apiAccess));
    const missingFromApp = routes.filter((r) => {
      const [method, url] = r.split(" ") as [string, string];
      return !t.app.hasRoute({ method: method as "GET", url });
    });
    expect(missingFromTable, "served routes the access table does not name").toEqual([]);
    expect(missingFromApp, "access-table lines with no route").toEqual([]);
    expect(served).toEqual([...routes].sort());
  });

  const cells = routes.flatMap((route) =>
    audiences.map((who) => ({ route, who, allowed: ruleOf(route).allow.includes(who) })),
  );

  it.each(cells)("$route as $who (allowed: $allowed)", async ({ route, who, allowed }) => {
    const owner = who === "anonymous" || who === "student" ? undefined : users[who];
    const url = await urlFor(route, owner);
    const before = await fingerprint();
    const res = await call(route, url, who);
    const scope = who === "anonymous" ? undefined : ruleOf(route).scope?.[who];
    const why = `${route} as ${who}: ${res.statusCode} ${res.body.slice(0, 200)}`;
    if (!allowed || scope === "none") {
      expect(res.statusCode, why).toBe(who === "anonymous" ? 401 : 403);
      expect(await fingerprint(), `${why}: a refused call changed data`).toBe(before);
      return;
    }
    expect(isHookRefusal(res), why).toBe(false);
    expect(res.statusCode, why).toBeLessThan(500);
  });

  // Own and other's records, for every route whose line has a scope.
  const scoped = routes.flatMap((route) => {
    const scope = ruleOf(route).scope ?? {};
    return (Object.entries(scope) as [Exclude<Audience, "anonymous">, Scope][]).flatMap(
      ([who, reach]) =>
        (["own", "other's"] as const).map((whose) => ({ route, who, reach, whose })),
    );
  });

  it.each(scoped)(
    "$route as $who on $whose record (scope $reach)",
    async ({ route, who, reach, whose }) => {
      const me = users[who];
      const path = route.slice(route.indexOf(" ") + 1);
      if (path.includes(":id")) {
        const owner = whose === "own" ? me : otherTeacher;
        const url = await urlFor(route, owner);
        const before = await fingerprint();
        const res = await call(route, url, who);
        const why = `${route} as ${who} on ${whose}: ${res.statusCode} ${res.body.slice(0, 200)}`;
        const mayReach = reach === "any" || (reach === "own" && whose === "own");
        if (!mayReach) {
          expect(res.statusCode, why).toBe(403);
          expect(await fingerprint(), `${why}: a refused call changed data`).toBe(before);
        } else {
          expect(res.statusCode, why).not.toBe(403);
          expect(res.statusCode, why).toBeLessThan(500);
        }
        return;
      }
      // Routes on "my" records (no id in the path): the answer holds the caller's records only.
      const other = who === "student" ? otherStudent : otherTeacher;
      const make = path.includes("students") ? newQuestionnaire : newPrediction;
      const mine = await make(me.user.uid);
      const theirs = await make(other.user.uid);
      const res = await call(route, path, who);
      const why = `${route} as ${who}: ${res.statusCode} ${res.body.slice(0, 300)}`;
      expect(res.statusCode, why).toBe(200);
      if (whose === "own" || reach === "any") expect(res.body, why).toContain(mine);
      if (reach === "own" && whose === "other's") {
        expect(res.body, why).not.toContain(theirs);
        expect(res.body, why).not.toContain(other.user.uid);
      }
    },
  );
});
