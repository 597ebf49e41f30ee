import { type ApiRoute, apiAccess } from "@gradecast/contract/api-access";
import { messages } from "@gradecast/contract/messages";
import { defaultOptionalQuestions, questions } from "@gradecast/contract/questionnaire";
import { behaviors } from "@gradecast/contract/reports";
import fc from "fast-check";
import { sql } from "kysely";
import { describe, expect } from "vitest";
import { apiTests } from "../support/fixtures.ts";
import { type DialectName, dialects, errorOf, unreachableOidcEnv } from "../support/helpers.ts";
import { hostileTexts } from "../support/security-payloads.ts";

/** The questions the test app's deployment lets a student leave out (OPTIONAL_QUESTIONS). */
const leftOutMayBe = (key: string) => (defaultOptionalQuestions as readonly string[]).includes(key);

// Property-based fuzzing of every API route of the contract's access table (a new route is
// fuzzed as soon as it is in the table): generated bodies, query strings, path parameters and
// headers, as anonymous callers, with a garbage or tampered token, and signed in as each role.
// Properties: never a 5xx, every 4xx in the uniform error shape and as JSON, no internals in any
// answer. Afterwards no row of the database holds a value outside the contract's ranges.
//
// FUZZ_RUNS sets the number of requests on PGlite (default 10,000); FUZZ_RUNS_PG those on
// PostgreSQL (default a tenth of that); FUZZ_SEED replays a run.
const runs = Number(process.env.FUZZ_RUNS ?? 10_000);
const pgRuns = Number(process.env.FUZZ_RUNS_PG ?? Math.max(500, Math.round(runs / 10)));
// Chosen here rather than by fast-check so that a failing run names the seed that replays it.
const seed = process.env.FUZZ_SEED
  ? Number(process.env.FUZZ_SEED)
  : Math.floor(Math.random() * 2 ** 31);

const routes = Object.keys(apiAccess).map((key) => {
  const [method, url] = key.split(" ") as [string, string];
  return { key: key as ApiRoute, method, url };
});

// Values the API's fields meet: valid ones, boundaries, numbers as text, wrong types, hostile
// text, very long text.
const choiceValues = questions.flatMap((q) => q.options.map((o) => o.value));
const edgeText = [
  "",
  " ",
  "0",
  "-0",
  "100",
  "101",
  "-1",
  "6",
  "7",
  "1e2",
  "0x10",
  "12.5",
  " 50 ",
  "٣",
  "Infinity",
  "NaN",
  "null",
  "true",
  "admin",
  "teacher",
  "student",
  "%",
  "_",
  "\\",
  "\u0000",
  "a@b.c",
  "A@B.C ",
  "correct horse battery staple",
  ...behaviors,
  ...hostileTexts,
];
const scalar: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...edgeText, ...choiceValues) },
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }) },
  { weight: 2, arbitrary: fc.integer({ min: -5, max: 130 }) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.array(fc.oneof(fc.integer(), fc.string()), { maxLength: 3 }) },
  {
    weight: 1,
    arbitrary: fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 2 }),
  },
  { weight: 1, arbitrary: fc.string({ minLength: 90, maxLength: 2100 }) },
);

const valid = {
  studentName: fc.constantFrom("Ada", "Émile Zola", "李雷", ...hostileTexts),
  course: fc.constantFrom("Math", "Physics", "Portuguese"),
  marks: fc.oneof(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100 }).map(String)),
  attendance: fc.integer({ min: 0, max: 100 }),
  assignments: fc.integer({ min: 0, max: 6 }),
  behavior: fc.constantFrom(...behaviors),
  feedback: fc.string({ minLength: 1, maxLength: 200 }),
};
/** Mostly valid, with any field possibly replaced by a hostile value or (unless every field is
 * required) left out. */
function nearly<T extends Record<string, fc.Arbitrary<unknown>>>(
  fields: T,
  weight = 10,
  everyField = false,
) {
  const record = Object.fromEntries(
    Object.entries(fields).map(([k, a]) => [
      k,
      fc.oneof({ weight, arbitrary: a }, { weight: 1, arbitrary: scalar }),
    ]),
  );
  return everyField ? fc.record(record) : fc.record(record, { requiredKeys: [] });
}
const reportBody = nearly(valid);
const answers = Object.fromEntries(
  questions.map((q) => [
    q.key,
    fc.oneof(
      fc.constantFrom(...q.options.map((o) => o.value)),
      fc.constantFrom(...q.options.map((o) => String(o.value))),
    ),
  ]),
);
// Half the questionnaires answer all 30 questions (about half of those with no hostile value, so
// they are stored and predicted and the database check below has rows to look at).
const questionnaireBody = fc.oneof(nearly(answers, 40, true), nearly(answers, 40));
const accountBody = nearly({
  name: fc.constantFrom("Ann", "  Bo  ", ...hostileTexts),
  email: fc.emailAddress(),
  password: fc.string({ minLength: 6, maxLength: 20 }),
  role: fc.constantFrom("student", "teacher", "admin", "root"),
  code: fc.integer({ min: 0, max: 999_999 }).map((n) => String(n).padStart(6, "0")),
  token: fc.string({ maxLength: 64 }),
  currentPassword: fc.string({ maxLength: 20 }),
  newPassword: fc.string({ minLength: 6, maxLength: 20 }),
  disabled: fc.boolean(),
});
const anyFields = fc.dictionary(
  fc.constantFrom(
    ...Object.keys(valid),
    ...questions.map((q) => q.key),
    "name",
    "email",
    "password",
    "role",
    "code",
    "token",
    "disabled",
    "__proto__",
    "constructor",
    "id",
  ),
  scalar,
  { maxKeys: 10 },
);
type Body = { json: unknown } | { raw: string } | undefined;
/** Bodies for a route: mostly the shape it takes, sometimes another route's, or anything. */
const bodyFor = (url: string): fc.Arbitrary<Body> => {
  const own = url.startsWith("/api/reports")
    ? reportBody
    : url === "/api/students" || url === "/api/predict"
      ? questionnaireBody
      : accountBody;
  return fc.oneof(
    { weight: 8, arbitrary: own.map((json) => ({ json })) },
    { weight: 1, arbitrary: reportBody.map((json) => ({ json })) },
    { weight: 1, arbitrary: questionnaireBody.map((json) => ({ json })) },
    { weight: 1, arbitrary: accountBody.map((json) => ({ json })) },
    { weight: 2, arbitrary: anyFields.map((json) => ({ json })) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((json) => ({ json })) },
    {
      weight: 1,
      arbitrary: fc
        .oneof(
          fc.string(),
          fc.constantFrom('{"a":', "{'a':1}", "[1,]", "\u0000", "{".repeat(3000), "nul"),
        )
        .map((raw) => ({ raw })),
    },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
};

const queryKeys = ["search", "limit", "cursor", "sort", "token", "page", "role", "q"];
const query = fc.array(
  fc.tuple(
    fc.constantFrom(...queryKeys),
    fc.oneof(
      fc.constantFrom(...edgeText, "date", "name", "marks", "25", "100", "1000"),
      fc.string({ maxLength: 30 }),
      fc.integer().map(String),
      fc.string({ minLength: 100, maxLength: 600 }),
    ),
  ),
  { maxLength: 4 },
);

type Who = "anonymous" | "student" | "teacher" | "admin" | "garbage" | "tampered" | "otherScheme";
const who = fc.constantFrom<Who>(
  "anonymous",
  "student",
  "teacher",
  "admin",
  "student",
  "teacher",
  "admin",
  "garbage",
  "tampered",
  "otherScheme",
);
const contentType = fc.oneof(
  { weight: 8, arbitrary: fc.constant("application/json") },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "application/json; charset=utf-8",
      "APPLICATION/JSON",
      "application/json; charset=latin1",
      "text/plain",
      "application/xml",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/octet-stream",
      "",
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
);
const extraHeaders = fc.record(
  {
    "x-forwarded-for": fc.oneof(fc.ipV4(), fc.string({ maxLength: 20 })),
    accept: fc.constantFrom("application/json", "text/html", "*/*", "text/csv", "x/y"),
    "accept-encoding": fc.constantFrom("gzip", "br", "identity", "*"),
    "content-encoding": fc.constantFrom("gzip", "deflate", "identity", "x"),
    "if-none-match": fc.string({ maxLength: 10 }),
    cookie: fc.oneof(
      fc.constant("gradecast_refresh=REAL"),
      fc.string({ maxLength: 40 }).map((v) => `gradecast_refresh=${encodeURIComponent(v)}`),
      fc.string({ maxLength: 40 }),
    ),
  },
  { requiredKeys: [] },
);

/** Printable, with no request-splitting characters: header values a client can send. */
const headerSafe = (v: string) => v.replace(/[^\x20-\x7e]/g, "");

const tests = apiTests({ env: { RATE_LIMITS: "off", ...unreachableOidcEnv } });

// In order even under --sequence.shuffle: the routes are fuzzed first, then the last test reads
// what the fuzzing stored (and the issue-18 routes, last in the table, are walked last).
const inOrder = { shuffle: false };
// @ts-expect-error describe.each hands its options to describe, which takes `shuffle`; its type omits it.
describe.each(dialects)("fuzzing every API route on %s", inOrder, (dialect: DialectName) => {
  const test = tests[dialect];
  const ids: { report: string[]; user: string[] } = { report: [], user: [] };
  const statuses = new Map<string, Map<number, number>>();
  /** Answers refused by the access hook (not signed in, wrong role, unverified, MFA to enrol). */
  let hookRefusals = 0;
  const timings = new Map<string, number>();
  const total = dialect === "pglite" ? runs : pgRuns;

  test.beforeAll(async ({ t, student, teacher }) => {
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/reports",
        headers: teacher.auth,
        payload: {
          studentName: `Seed ${i}`,
          course: "Math",
          marks: 50,
          attendance: 90,
          assignments: 3,
          behavior: "Good",
          feedback: "ok",
        },
      });
      expect(res.statusCode).toBe(201);
      ids.report.push((res.json() as { report: { id: string } }).report.id);
    }
    ids.user.push(student.user.uid);
  }, 120_000);

  const perRoute = Math.ceil(total / routes.length);
  // The writes whose stored values the range check reads: few random inputs pass every check
  // (a signed-in teacher, a valid body, no student outside their classes), so these get more.
  const writes = new Set(["POST /api/reports", "POST /api/students", "POST /api/predict"]);

  test.for(routes)(
    `$key: no 5xx, every 4xx in the error shape (${perRoute} inputs)`,
    async (route, { t, student, teacher, admin }) => {
      // Real ids too, except for deletions: the seeded reports stay for the database check.
      const real = route.method === "DELETE" ? ["00000000-0000-4000-8000-000000000000"] : [];
      const param = fc.oneof(
        fc.uuid(),
        fc.constantFrom(...(real.length ? real : [...ids.report, ...ids.user])),
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.constantFrom("..", "%2e%2e", "0", "-1", "null", "' or 1=1--", "a".repeat(300)),
      );
      const request = fc.record({
        who,
        params: fc.tuple(param, param),
        query,
        body: bodyFor(route.url),
        contentType,
        extra: extraHeaders,
      });
      const seen = statuses.get(route.key) ?? new Map<number, number>();
      statuses.set(route.key, seen);
      const started = performance.now();
      await fc.assert(
        fc.asyncProperty(request, async (r) => {
          let n = 0;
          const path = route.url.replace(/:[a-z]+/g, () => encodeURIComponent(r.params[n++] ?? ""));
          const qs = r.query
            .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
            .join("&");
          const headers: Record<string, string> = {};
          for (const [k, v] of Object.entries(r.extra)) headers[k] = headerSafe(String(v));
          if (headers.cookie === "gradecast_refresh=REAL") {
            headers.cookie = `gradecast_refresh=${teacher.refreshToken}`;
          }
          const signed =
            r.who === "student" || r.who === "teacher" || r.who === "admin"
              ? { student, teacher, admin }[r.who]
              : undefined;
          if (signed) headers.authorization = `Bearer ${signed.token}`;
          if (r.who === "garbage") headers.authorization = "Bearer not.a.token";
          if (r.who === "tampered") {
            const tk = admin.token;
            headers.authorization = `Bearer ${tk.slice(0, -3)}${tk.endsWith("A") ? "B" : "A"}xx`;
          }
          if (r.who === "otherScheme") headers.authorization = "Basic YWRtaW46YWRtaW4=";
          let payload: string | undefined;
          if (r.body && route.method !== "GET" && route.method !== "DELETE") {
            payload = "raw" in r.body ? r.body.raw : JSON.stringify(r.body.json);
            if (payload !== undefined) headers["content-type"] = headerSafe(r.contentType);
          }
          if (payload === undefined) delete headers["content-encoding"];
          const res = await t.app.inject({
            method: route.method as "GET",
            url: qs ? `${path}?${qs}` : path,
            headers,
            ...(payload !== undefined ? { payload } : {}),
            remoteAddress: "10.1.2.3",
          });
          seen.set(res.statusCode, (seen.get(res.statusCode) ?? 0) + 1);
          if (res.statusCode === 401 || res.statusCode === 403) {
            const code = (JSON.parse(res.body) as { error?: { code?: string; message?: string } })
              .error;
            const byHook =
              (code?.code === "unauthorized" && code.message === messages.signInRequired) ||
              ["forbidden", "email_not_verified", "mfa_enrolment_required"].includes(
                code?.code ?? "",
              );
            if (byHook) hookRefusals += 1;
          }
          const where = `${route.method} ${path}?${qs} as ${r.who} [${headers["content-type"] ?? ""}] ${payload?.slice(0, 300) ?? ""} → ${res.statusCode} ${res.body.slice(0, 300)}`;
          expect(res.statusCode, where).toBeLessThan(500);
          expect(res.body, where).not.toMatch(
            /\$argon2|node_modules\/|\.ts:\d+:\d+|\n\s+at \S+ \(/,
          );
          if (res.statusCode >= 400) {
            expect(res.headers["content-type"], where).toMatch(/^application\/json/);
            const error = errorOf(res.body);
            expect(error.message.length, where).toBeGreaterThan(0);
            expect(error.code, where).toMatch(/^[a-z_]+$/);
          }
        }),
        {
          numRuns: writes.has(route.key) ? perRoute * 4 : perRoute,
          seed,
          endOnFailure: true,
        },
      );
      timings.set(route.key, performance.now() - started);
    },
  );

  test(`fuzzed ${total} inputs or more, and the database holds no value outside the contract's ranges`, async ({
    t,
  }) => {
    let count = 0;
    for (const m of statuses.values()) for (const c of m.values()) count += c;
    expect(count).toBeGreaterThanOrEqual(total);
    // Most of the fuzzing must have gone past the access hook into the handlers.
    // A 401 from a handler (a wrong password, an MFA code, a spent sign-in challenge) counts.
    // Callers are drawn at random (four in ten anonymous or forged) a dozen times a route, so on
    // PostgreSQL's thousand inputs the share swings widely between seeds (0.29 and 0.39 seen);
    // it is held to its floor where the sample is large (PGlite's ten thousand).
    const handled = count - hookRefusals;
    console.log(`fuzz on ${dialect}: ${(handled / count).toFixed(3)} past the access hook`);

    const db = t.database.db;
    const bad = async (query: ReturnType<typeof sql<{ n: number }>>) =>
      Number((await query.execute(db)).rows[0]?.n ?? 0);
    const reports = await bad(sql<{ n: number }>`select count(*)::int as n from student_reports`);
    // The check below is not on empty tables: the seeded reports are there, and in a full run
    // the fuzzer's valid inputs were stored too.
    expect(reports).toBeGreaterThanOrEqual(3);
    if (total >= 5000) {
      expect(handled / count, `FUZZ_SEED=${seed}`).toBeGreaterThan(0.3);
      expect(statuses.get("POST /api/reports")?.get(201) ?? 0).toBeGreaterThan(0);
      expect(statuses.get("POST /api/students")?.get(201) ?? 0).toBeGreaterThan(0);
      expect(statuses.get("POST /api/predict")?.get(200) ?? 0).toBeGreaterThan(0);
    }
    expect(
      await bad(sql`select count(*)::int as n from student_reports where not (
        marks between 0 and 100 and attendance between 0 and 100 and assignments between 0 and 6
        and behavior in ('Excellent', 'Good', 'Average', 'Needs Improvement', 'Poor')
        and char_length(student_name) between 1 and 100 and char_length(course) between 1 and 100
        and char_length(feedback) between 1 and 2000
        and student_name = btrim(student_name) and course = btrim(course))`),
    ).toBe(0);
    expect(
      await bad(sql`select count(*)::int as n from users where not (
        role in ('student', 'teacher', 'admin') and char_length(name) between 1 and 100
        and email = lower(btrim(email)) and email like '%_@_%')`),
    ).toBe(0);

    const numeric = questions.filter((q) => q.kind === "number");
    const ranges = numeric.map((q) => {
      const values = q.options.map((o) => Number(o.value));
      return { key: q.key, min: Math.min(...values), max: Math.max(...values) };
    });
    expect(ranges.find((r) => r.key === "age")).toMatchObject({ min: 10, max: 25 });
    expect(ranges.find((r) => r.key === "absences")).toMatchObject({ min: 0, max: 100 });
    expect(ranges.find((r) => r.key === "G1")).toMatchObject({ min: 0, max: 20 });
    const students = (await sql<Record<string, unknown>>`select * from students`.execute(db)).rows;
    for (const row of students) {
      for (const { key, min, max } of ranges) {
        // G1 and G2 may be null: not known yet (issue 19)
        if (row[key.toLowerCase()] === null && (key === "G1" || key === "G2")) continue;
        // an optional question may be null: "Prefer not to say" (issue 31)
        if (row[key.toLowerCase()] === null && leftOutMayBe(key)) continue;
        const v = Number(row[key.toLowerCase()]);
        expect(Number.isInteger(v) && v >= min && v <= max, `${key}=${v}`).toBe(true);
      }
      for (const q of questions.filter((x) => x.kind === "choice")) {
        // the subject may be left out (null): older clients, or filled in from the class
        if (q.key === "subject" && row.subject === null) continue;
        // the school is the deployment's (MODEL_SCHOOL), none where it is not set (issue 28)
        if (q.key === "school" && row.school === null) continue;
        if (row[q.key.toLowerCase()] === null && leftOutMayBe(q.key)) continue;
        expect(q.options.map((o) => o.value)).toContain(row[q.key.toLowerCase()]);
      }
    }
    const predictions = (
      await sql<{
        score: number;
        interval_low: number;
        interval_high: number;
        inputs: Record<string, unknown>;
      }>`select score, interval_low, interval_high, inputs from predictions`.execute(db)
    ).rows;
    for (const p of predictions) {
      for (const v of [p.score, p.interval_low, p.interval_high]) {
        expect(v >= 0 && v <= 20, `prediction value ${v}`).toBe(true);
      }
      expect(p.interval_low).toBeLessThanOrEqual(p.interval_high);
      const inputs = (typeof p.inputs === "string" ? JSON.parse(p.inputs) : p.inputs) ?? {};
      for (const { key, min, max } of ranges) {
        const raw = inputs[key] ?? inputs[key.toLowerCase()];
        if (raw === undefined) continue;
        const v = Number(raw);
        expect(Number.isInteger(v) && v >= min && v <= max, `prediction input ${key}=${raw}`).toBe(
          true,
        );
      }
    }
    const summary = [...statuses].map(
      ([k, m]) =>
        `${k} (${((timings.get(k) ?? 0) / 1000).toFixed(1)} s): ${[...m]
          .sort((a, b) => a[0] - b[0])
          .map(([s, c]) => `${s}×${c}`)
          .join(" ")}`,
    );
    console.log(
      `fuzz on ${dialect}: ${count} requests; ${reports} reports, ${students.length} questionnaires, ${predictions.length} predictions checked\n${summary.join("\n")}`,
    );
  });
});
