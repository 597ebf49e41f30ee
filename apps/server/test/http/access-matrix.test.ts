import { randomBytes, randomUUID } from "node:crypto";
import {
  type ApiRoute,
  apiAccess,
  needsVerifiedEmail,
  type Scope,
} from "@gradecast/contract/api-access";
import { messages } from "@gradecast/contract/messages";
import type { Audience } from "@gradecast/contract/roles";
import { sql } from "kysely";
import { beforeAll, describe, expect } from "vitest";
import { hashPassword } from "../../src/auth/passwords.ts";
import { enqueueJob } from "../../src/jobs/queue.ts";
import { enrolMfa, randomIp, type SignedInUser, signIn, uniqueEmail } from "../support/accounts.ts";
import { makeClass } from "../support/class-fixtures.ts";
import { apiTests } from "../support/fixtures.ts";
import { dialects, type TestApp, unreachableOidcEnv } from "../support/helpers.ts";
import { predictionRow, studentsRow } from "../support/questionnaire-fixture.ts";
import { sampleQuestionnaire } from "../support/sample-answers.ts";

// The authorisation matrix (issue 8), generated from the contract's table: every API route x
// anonymous, student, teacher and admin, and for routes with a record scope, the caller's own
// record and another's. A refused cell must answer 401 (anonymous) or 403 (wrong role or
// another's record) and change nothing in any table; an allowed cell must get past the access
// hook (any answer but the hook's 401/403, and no 5xx). The test also fails when the app
// serves an API route the table does not name, or the table names a route the app lacks.

const audiences: readonly Audience[] = ["anonymous", "student", "teacher", "admin"];
const routes = Object.keys(apiAccess) as ApiRoute[];

type Rule = { allow: readonly Audience[]; scope?: Partial<Record<Audience, Scope>> };
/** Answers with nobody's personal data, which browsers may keep. */
const publicAnswers: readonly ApiRoute[] = [
  "GET /api/health",
  "GET /api/site",
  "GET /api/docs",
  "GET /api/docs/openapi.json",
  "GET /api/openapi.json",
];
const relationships = ["unverified student", "unverified teacher", "pending teacher"] as const;
type Relationship = (typeof relationships)[number];
/** The role each relationship signs in with: a pending teacher is a student until approved. */
const roleOf: Record<Relationship, Exclude<Audience, "anonymous">> = {
  "unverified student": "student",
  "unverified teacher": "teacher",
  "pending teacher": "student",
};
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

const tests = apiTests({
  env: { RATE_LIMITS: "off", ...unreachableOidcEnv },
  runJobs: false,
});

describe.each(dialects)("authorisation matrix (%s)", (dialect) => {
  const test = tests[dialect];
  let t: TestApp;
  const users = {} as Record<Exclude<Audience, "anonymous">, SignedInUser>;
  let otherTeacher: SignedInUser;
  let otherStudent: SignedInUser;
  /** Relationships beside the role: an unverified email, a teacher sign-up not yet approved. */
  const related = {} as Record<Relationship, SignedInUser>;
  let tables: string[] = [];

  test.beforeAll(async ({ t: app }) => {
    t = app;
    users.student = await signIn(t, "student");
    users.teacher = await signIn(t, "teacher");
    users.admin = await signIn(t, "admin");
    otherTeacher = await signIn(t, "teacher", { name: "Other Teacher" });
    otherStudent = await signIn(t, "student", { name: "Other Student" });
    related["unverified student"] = await signIn(t, "student", { verified: false });
    related["unverified teacher"] = await signIn(t, "teacher", { verified: false });
    related["pending teacher"] = await signIn(t, "teacher", { pending: true });
    const rows = await sql<{ name: string }>`
      select table_name as name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE'
        and table_name not like 'kysely_%'
      order by table_name`.execute(t.database.db);
    tables = rows.rows.map((r) => r.name);
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

  /** A report by its author, about a pupil by name only unless linked to a student and class. */
  async function newReport(
    authorId: string,
    about: { student_name?: string; student_id?: string; class_id?: string } = {},
  ): Promise<string> {
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
        ...about,
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

  /** A questionnaire ("students") or a prediction ("predictions") of the user, written directly. */
  async function newRecord(table: "students" | "predictions", userId: string): Promise<string> {
    const db = t.database.db;
    const row = await (table === "students"
      ? db
          .insertInto(table)
          .values({ ...studentsRow(sampleQuestionnaire), user_id: userId })
          .returning("id")
      : db.insertInto(table).values(predictionRow(userId, "matrix")).returning("id")
    ).executeTakeFirstOrThrow();
    return row.id;
  }

  /**
   * A class its owner teaches (a teacher) or is enrolled in and invited to (a student: the
   * invitation is the student's own record of the invitation routes, issue 26).
   */
  async function newClass(owner: SignedInUser): Promise<string> {
    const { role, uid } = owner.user;
    const classId = await makeClass(t, {
      name: "Matrix class",
      teachers: role === "teacher" ? [uid] : [],
      students: role === "student" ? [uid] : [],
    });
    if (role === "student") await inviteTo(classId, owner);
    return classId;
  }

  async function inviteTo(classId: string, student: SignedInUser): Promise<void> {
    await t.database.db
      .insertInto("class_invitations")
      .values({
        class_id: classId,
        email: student.email,
        name: student.user.name,
        invited_by: users.teacher.user.uid,
        needs_consent: true,
      })
      .execute();
  }

  /** A background job someone started (a kind no handler takes: it stays queued). */
  async function newJob(createdBy: string): Promise<string> {
    return enqueueJob(t.database.db, { kind: "test.matrix", key: randomUUID(), createdBy });
  }

  /** The record a cell acts on, for a route with a path parameter. */
  async function urlFor(route: ApiRoute, owner: SignedInUser | undefined): Promise<string> {
    const path = route.slice(route.indexOf(" ") + 1);
    if (path.startsWith("/api/jobs/:id")) {
      return path.replace(":id", await newJob((owner ?? otherTeacher).user.uid));
    }
    if (path.startsWith("/api/classes/:id")) {
      const url = path.replace(":id", await newClass(owner ?? otherTeacher));
      return url.includes(":uid") ? url.replace(":uid", await newUser()) : url;
    }
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

  /**
   * Turning MFA off is only meaningful for an account that has it: each cell gives it first, so
   * the answer does not depend on which cells ran before (--sequence.shuffle).
   */
  async function withMfaOn(route: ApiRoute, user: SignedInUser | undefined): Promise<void> {
    if (route !== "DELETE /api/me/mfa" || !user) return;
    const status = await t.app.inject({ method: "GET", url: "/api/me/mfa", headers: user.auth });
    if (status.statusCode === 200 && !(status.json() as { enabled: boolean }).enabled) {
      await enrolMfa(t, user.auth);
    }
  }

  test("names exactly the API routes the app serves", () => {
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

  test.each(cells)("$route as $who (allowed: $allowed)", async ({ route, who, allowed }) => {
    const owner = who === "anonymous" || who === "student" ? undefined : users[who];
    const url = await urlFor(route, owner);
    await withMfaOn(route, who === "anonymous" ? undefined : users[who]);
    const before = await fingerprint();
    const res = await call(route, url, who);
    // Turning MFA off (allowed) leaves an admin able only to enrol: enrol again for the rest.
    if (route === "DELETE /api/me/mfa" && who === "admin" && res.statusCode === 204) {
      await enrolMfa(t, users.admin.auth);
    }
    const scope = who === "anonymous" ? undefined : ruleOf(route).scope?.[who];
    const why = `${route} as ${who}: ${res.statusCode} ${res.body.slice(0, 200)}`;
    if (!allowed || scope === "none") {
      expect(res.statusCode, why).toBe(who === "anonymous" ? 401 : 403);
      expect(await fingerprint(), `${why}: a refused call changed data`).toBe(before);
      return;
    }
    expect(isHookRefusal(res), why).toBe(false);
    expect(res.statusCode, why).toBeLessThan(500);
    if (!publicAnswers.includes(route)) {
      expect(res.headers["cache-control"], `${why}: may be cached`).toBe("no-store");
    }
  });

  // The same routes for accounts whose role alone would not tell: an unverified email sees no
  // data about anyone else (403 email_not_verified), a pending teacher is still a student.
  const relationshipCells = routes.flatMap((route) => relationships.map((who) => ({ route, who })));

  test.each(relationshipCells)("$route as $who", async ({ route, who }) => {
    const user = related[who];
    const role = roleOf[who];
    expect(user.user.role, who).toBe(role);
    const url = await urlFor(route, undefined);
    const method = route.slice(0, route.indexOf(" ")) as "GET" | "POST" | "PATCH" | "DELETE";
    await withMfaOn(route, user);
    const before = await fingerprint();
    const res = await t.app.inject({
      method,
      url,
      remoteAddress: randomIp(),
      headers: user.auth,
      ...(method === "POST" || method === "PATCH" ? { payload: {} } : {}),
    });
    const why = `${route} as ${who}: ${res.statusCode} ${res.body.slice(0, 200)}`;
    const rule = ruleOf(route);
    const unverified = who.startsWith("unverified");
    if (!rule.allow.includes(role)) {
      expect(res.statusCode, why).toBe(403);
      expect(JSON.parse(res.body).error.code, why).toBe("forbidden");
    } else if (unverified && needsVerifiedEmail(route)) {
      expect(res.statusCode, why).toBe(403);
      expect(JSON.parse(res.body).error.code, why).toBe("email_not_verified");
    } else {
      expect(isHookRefusal(res), why).toBe(false);
      expect(res.statusCode, why).toBeLessThan(500);
      return;
    }
    expect(await fingerprint(), `${why}: a refused call changed data`).toBe(before);
  });

  // Own and other's records, for every route whose line has a scope.
  const scoped = routes.flatMap((route) => {
    const scope = ruleOf(route).scope ?? {};
    return (Object.entries(scope) as [Exclude<Audience, "anonymous">, Scope][]).flatMap(
      ([who, reach]) =>
        (["own", "other's"] as const).map((whose) => ({ route, who, reach, whose })),
    );
  });

  test.each(scoped)(
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
        const mayReach =
          reach === "any" || ((reach === "own" || reach === "class") && whose === "own");
        if (!mayReach) {
          // A class the caller has no part in is not found (its existence is not told).
          // A report out of a teacher's sight is not found either (docs/decisions/0005).
          expect(res.statusCode, why).toBe(
            path.startsWith("/api/classes/") ||
              path.startsWith("/api/reports/") ||
              path.startsWith("/api/jobs/")
              ? 404
              : 403,
          );
          expect(await fingerprint(), `${why}: a refused call changed data`).toBe(before);
        } else {
          expect(res.statusCode, why).not.toBe(403);
          expect(res.statusCode, why).toBeLessThan(500);
        }
        return;
      }
      // Routes on "my" records (no id in the path): the answer holds the caller's records only.
      const other = who === "student" ? otherStudent : otherTeacher;
      const table = path.includes("students") ? "students" : "predictions";
      const mine = await newRecord(table, me.user.uid);
      const theirs = await newRecord(table, other.user.uid);
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
  // Relationships (issue 17): every route for each of anonymous, an unverified teacher of the
  // class, a pending teacher, the class's teacher, a teacher of another class, a student enrolled
  // in the class, a student of another class, and an admin. Each cell acts on a fresh class of
  // its own (taught by "class teacher" and the unverified teacher, with "enrolled student" in
  // it) and, for report routes, a report the class teacher filed about the enrolled student. A
  // refused cell answers exactly its status and changes nothing; an allowed one gets past every
  // check of who may call (no sign-in 401, no 403, no 404) without a fault.
  const parties = [
    "anonymous",
    "unverified",
    "pending teacher",
    "class teacher",
    "other class's teacher",
    "enrolled student",
    "other student",
    "admin",
  ] as const;
  type Party = (typeof parties)[number];
  /** The role each party signs in with (a pending teacher is a student until approved). */
  const partyRole: Record<Exclude<Party, "anonymous">, Exclude<Audience, "anonymous">> = {
    unverified: "teacher",
    "pending teacher": "student",
    "class teacher": "teacher",
    "other class's teacher": "teacher",
    "enrolled student": "student",
    "other student": "student",
    admin: "admin",
  };
  const related2 = {} as Record<Exclude<Party, "anonymous">, SignedInUser>;

  beforeAll(async () => {
    related2.unverified = related["unverified teacher"];
    related2["pending teacher"] = related["pending teacher"];
    related2["class teacher"] = users.teacher;
    related2["other class's teacher"] = otherTeacher;
    related2["enrolled student"] = users.student;
    related2["other student"] = otherStudent;
    related2.admin = users.admin;
    const other = await newClassOf([otherTeacher.user.uid], [otherStudent.user.uid]);
    expect(other).toEqual(expect.any(String));
  });

  async function newClassOf(teachers: string[], students: string[]): Promise<string> {
    const joinCode = Array.from(
      randomBytes(8),
      (b) => "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"[b % 32],
    ).join("");
    return makeClass(t, {
      name: "Relationship class",
      subject: "por",
      teachers,
      students,
      joinCode,
    });
  }

  /** The url of a cell: the route's record is this cell's class, its report, its student. */
  async function relationshipUrl(route: ApiRoute, who: Party): Promise<string> {
    let path = route.slice(route.indexOf(" ") + 1);
    // A session is the caller's own record: another sign-in of theirs, so that ending it leaves
    // the session this test calls with alive.
    if (path === "/api/me/sessions/:id") {
      return path.replace(":id", who === "anonymous" ? randomUUID() : await otherSession(who));
    }
    // A job: the insiders' own (each started it), the class teacher's for everyone else.
    if (path === "/api/jobs/:id") {
      const insider = who === "class teacher" || who === "enrolled student" || who === "unverified";
      return path.replace(":id", await newJob(related2[insider ? who : "class teacher"].user.uid));
    }
    const classId = await newClassOf(
      [users.teacher.user.uid, related["unverified teacher"].user.uid],
      [users.student.user.uid],
    );
    // The enrolled student is also the one invited to the class (issue 26's invitation routes).
    await inviteTo(classId, users.student);
    if (path.includes("/api/reports/:id")) {
      const reportId = await newReport(users.teacher.user.uid, {
        student_name: users.student.user.name,
        student_id: users.student.user.uid,
        class_id: classId,
      });
      path = path.replace(":id", reportId);
    }
    path = path.replace(":id", classId);
    // An intervention plan (issue 32) of the class's enrolled student.
    if (path.includes(":planId")) {
      const plan = await t.database.db
        .insertInto("intervention_plans")
        .values({
          class_id: classId,
          student_id: users.student.user.uid,
          owner_id: users.teacher.user.uid,
          tier: 1,
          goal: "Matrix plan",
          review_on: "2030-01-01",
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      path = path.replace(":planId", plan.id);
    }
    if (path.includes("/students/:uid") || path.includes("/record/:uid")) {
      path = path.replace(":uid", users.student.user.uid);
    }
    if (path.includes("/teachers/:uid")) {
      path = path.replace(":uid", related["unverified teacher"].user.uid);
    }
    if (path.includes(":email")) path = path.replace(":email", await newInvitation(route, classId));
    return path.includes(":uid") ? path.replace(":uid", await newUser()) : path;
  }

  /** An open invitation for a cell to take back: the class's (roster) or a teacher's. */
  async function newInvitation(route: ApiRoute, classId: string): Promise<string> {
    const email = uniqueEmail("invited");
    const values = { email, name: "Invited Person", invited_by: users.admin.user.uid };
    if (route.includes("/api/classes/")) {
      await t.database.db
        .insertInto("class_invitations")
        .values({ ...values, class_id: classId })
        .execute();
    } else {
      await t.database.db.insertInto("teacher_invitations").values(values).execute();
    }
    return encodeURIComponent(email);
  }

  async function otherSession(who: Exclude<Party, "anonymous">): Promise<string> {
    const familyId = randomUUID();
    const now = new Date();
    await t.database.db
      .insertInto("sessions")
      .values({
        family_id: familyId,
        user_id: related2[who].user.uid,
        token_hash: randomBytes(32).toString("hex"),
        signed_in_at: now,
        expires_at: new Date(now.getTime() + 86_400_000),
      })
      .execute();
    return familyId;
  }

  /** What a party gets: "allowed", or the refusal's status and code. */
  function expectedFor(route: ApiRoute, who: Party): "allowed" | [number, string] {
    const rule = ruleOf(route);
    if (who === "anonymous") {
      return rule.allow.includes("anonymous") ? "allowed" : [401, "unauthorized"];
    }
    const role = partyRole[who];
    if (!rule.allow.includes(role)) return [403, "forbidden"];
    if (who === "unverified" && needsVerifiedEmail(route)) return [403, "email_not_verified"];
    const scope = rule.scope?.[role];
    if (scope === "none") return [403, "forbidden"];
    const onRecord = route.includes(":id");
    const insider = who === "class teacher" || who === "enrolled student" || who === "unverified";
    if (onRecord && (scope === "own" || scope === "class") && !insider) {
      return [404, "not_found"];
    }
    return "allowed";
  }

  const partyCells = routes.flatMap((route) =>
    parties.map((who) => ({ route, who, expected: JSON.stringify(expectedFor(route, who)) })),
  );

  test.each(partyCells)("$route as $who: $expected", async ({ route, who }) => {
    if (who !== "anonymous") expect(related2[who].user.role, who).toBe(partyRole[who]);
    const url = await relationshipUrl(route, who);
    const method = route.slice(0, route.indexOf(" ")) as "GET" | "POST" | "PATCH" | "DELETE";
    await withMfaOn(route, who === "anonymous" ? undefined : related2[who]);
    const before = await fingerprint();
    const res = await t.app.inject({
      method,
      url,
      remoteAddress: randomIp(),
      headers: who === "anonymous" ? {} : related2[who].auth,
      ...(method === "POST" || method === "PATCH" ? { payload: {} } : {}),
    });
    // Turning MFA off (allowed) leaves an admin able only to enrol: enrol again for the rest.
    if (route === "DELETE /api/me/mfa" && who === "admin" && res.statusCode === 204) {
      await enrolMfa(t, users.admin.auth);
    }
    const why = `${route} as ${who}: ${res.statusCode} ${res.body.slice(0, 200)}`;
    const expected = expectedFor(route, who);
    if (expected === "allowed") {
      // A 401 of the route's own credential (a refresh cookie, an embed token) is not a refusal.
      expect(isHookRefusal(res), why).toBe(false);
      expect(res.statusCode, why).not.toBe(404);
      expect(res.statusCode, why).toBeLessThan(500);
      return;
    }
    expect(res.statusCode, why).toBe(expected[0]);
    expect(JSON.parse(res.body).error.code, why).toBe(expected[1]);
    expect(await fingerprint(), `${why}: a refused call changed data`).toBe(before);
  });

  // Lists: where a list route is allowed, its answer holds nothing of a class the caller has no
  // part in. Each cell seeds, just before its call, a class of strangers (a teacher and a
  // student no party is related to, in a class of their own) with a report about the student,
  // so that a leak would be the newest row of any list. The school-wide lists are also asked
  // for the strangers by name: an admin, who reaches the whole school, is answered with them,
  // so the question is one that finds them when they are in reach.
  const listRoutes = [
    "GET /api/reports",
    "GET /api/reports/export.csv",
    "GET /api/me/reports",
    "GET /api/classes",
    "GET /api/classes/students",
    "GET /api/classes/:id/members",
    "GET /api/classes/:id/risk",
    "GET /api/classes/:id/risk.csv",
  ] as const satisfies readonly ApiRoute[];
  /** The lists an admin reads school-wide (the strangers are in reach of an admin there). */
  const schoolWide: readonly ApiRoute[] = [
    "GET /api/reports",
    "GET /api/reports/export.csv",
    "GET /api/classes",
    "GET /api/classes/students",
  ];
  const strangers = {} as { teacher: SignedInUser; student: SignedInUser };

  beforeAll(async () => {
    strangers.teacher = await signIn(t, "teacher", { name: "Zelda Stranger" });
    strangers.student = await signIn(t, "student", { name: "Zeno Stranger" });
  });

  /** A class of strangers and a report about its student: every value that must not leak. */
  async function strangerRecords(): Promise<string[]> {
    const tag = randomBytes(4).toString("hex");
    const db = t.database.db;
    const classId = await makeClass(t, {
      name: `Stranger class ${tag}`,
      teachers: [strangers.teacher.user.uid],
      students: [strangers.student.user.uid],
    });
    const report = await db
      .insertInto("student_reports")
      .values({
        author_id: strangers.teacher.user.uid,
        student_name: strangers.student.user.name,
        student_id: strangers.student.user.uid,
        class_id: classId,
        course: "Maths",
        marks: 41,
        attendance: 80,
        assignments: 2,
        behavior: "Good",
        feedback: `Stranger feedback ${tag}.`,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return [
      classId,
      `Stranger class ${tag}`,
      report.id,
      `Stranger feedback ${tag}.`,
      strangers.student.user.uid,
      strangers.student.user.name,
      strangers.teacher.user.uid,
      strangers.teacher.user.name,
    ];
  }

  const listCells = listRoutes.flatMap((route) =>
    parties
      .filter((who) => expectedFor(route, who) === "allowed")
      .map((who) => ({ route, who: who as Exclude<Party, "anonymous"> })),
  );

  test.each(listCells)("$route as $who holds nothing of another class", async ({ route, who }) => {
    const me = related2[who];
    const classId = await newClassOf(
      [users.teacher.user.uid, related["unverified teacher"].user.uid],
      [users.student.user.uid],
    );
    // The enrolled student is also the one invited to the class (issue 26's invitation routes).
    await inviteTo(classId, users.student);
    const ours = await newReport(users.teacher.user.uid, {
      student_id: users.student.user.uid,
      class_id: classId,
    });
    const theirs = await strangerRecords();
    const path = route.slice(route.indexOf(" ") + 1).replace(":id", classId);
    const get = (url: string) =>
      t.app.inject({ method: "GET", url, remoteAddress: randomIp(), headers: me.auth });
    const answers = [await get(path)];
    if (route.startsWith("GET /api/reports") || route === "GET /api/classes/students") {
      answers.push(await get(`${path}?search=${encodeURIComponent("Zeno Stranger")}`));
    }
    const admin = who === "admin";
    for (const res of answers) {
      const why = `${route} as ${who}: ${res.statusCode} ${res.body.slice(0, 200)}`;
      expect(res.statusCode, why).toBe(200);
      if (admin && schoolWide.includes(route)) continue;
      for (const value of theirs) expect(res.body, `${why}: holds ${value}`).not.toContain(value);
    }
    const [all, searched] = answers;
    if (admin && schoolWide.includes(route)) {
      // The same question finds the strangers when they are in reach: their class in the list
      // of classes, their student among the enrolled, their report (its text in the CSV).
      const [classId, , reportId, feedback, studentId] = theirs;
      const found = {
        "GET /api/classes": [all, classId],
        "GET /api/classes/students": [searched, studentId],
        "GET /api/reports": [searched, reportId],
        "GET /api/reports/export.csv": [searched, feedback],
      } as const;
      const [res, value] = found[route as keyof typeof found];
      expect(res!.body, `${route} as admin finds the strangers`).toContain(value);
    }
    // And the answer is about the caller's own class when they have one.
    const insider = who === "class teacher" || who === "enrolled student";
    if (route.includes(":id")) expect(all!.body).toContain(users.student.user.name);
    if (route === "GET /api/classes" && (insider || admin)) expect(all!.body).toContain(classId);
    if (route === "GET /api/me/reports" && who === "enrolled student") {
      expect(all!.body).toContain(ours);
    }
    if (route === "GET /api/reports" && (who === "class teacher" || admin)) {
      expect(all!.body).toContain(ours);
    }
  });
});
