import {
  classRiskSchema,
  isSchoolRecordKey,
  noteAnswerSchema,
  otherAnswersFeature,
  riskCells,
  riskColumns,
  riskColumnsFor,
  riskMessages,
  schoolRecordKeys,
  sharingSchema,
} from "@gradecast/contract/class-risk";
import type { PredictionHistory } from "@gradecast/contract/prediction";
import { questionKeys } from "@gradecast/contract/questionnaire";
import type { Kysely } from "kysely";
import { describe, expect } from "vitest";
import { up as stripNoteText } from "../../src/db/migrations/0016-audit-note-text.ts";
import { routeSchema } from "../../src/http/route-schemas.ts";
import { riskWordsOf } from "../../src/i18n/risk-words.ts";
import { csvHeaderText } from "../../src/i18n/translate.ts";
import { type SignedInUser, signIn } from "../support/accounts.ts";
import { classStaff, makeClass, staffClasses } from "../support/class-fixtures.ts";
import { api, riskItemOf } from "../support/class-helpers.ts";
import { apiTests, type People, type Person } from "../support/fixtures.ts";
import { auditOf, dialects, errorOf } from "../support/helpers.ts";
import { parseCsv } from "../support/reports-csv-parser.ts";
import { doingWell, struggling } from "../support/risk-answers.ts";

// The class risk list (issue 20) through the real API: who reads it (every relationship), the
// privacy rule (a teacher sees reasons from the school record only, the rest summed as "Other
// answers", unless the student shares), students who have not answered, the order, the CSV
// export with the screen's columns, and intervention notes (the class's teachers' alone: who may
// write and read them, and an audit log that says a note was written, never what it says).

const privateKeys = questionKeys.filter((k) => !isSchoolRecordKey(k));

const middling = { ...doingWell, G1: 10, G2: 9, absences: 6, failures: 0 };

const cast = {
  ...classStaff,
  /** Answers as struggling, does not share. */
  amy: ["student", { name: "Amy Struggling" }],
  /** Answers as doing well, shares her full explanation. */
  ben: ["student", { name: "Ben Sharing" }],
  /** Never answers. */
  cleo: ["student", { name: "Cleo Silent" }],
  /** Answers in the middle; a name a spreadsheet would read as a formula. */
  dan: ["student", { name: "=HYPERLINK(1) Dan" }],
  /** Enrolled in another class only. */
  otherStudent: ["student", { name: "Other Student" }],
} satisfies Record<string, Person>;
const tests = apiTests({ env: { RATE_LIMITS: "off" }, people: cast });

describe.each(dialects)("class risk list (%s)", (dialect) => {
  const test = tests[dialect];
  let call: ReturnType<typeof api>["call"];
  let riskList: ReturnType<typeof api>["riskList"];
  let predict: ReturnType<typeof api>["predict"];
  let classId: string;
  let otherClassId: string;

  const risk = (who: SignedInUser | undefined, id = classId) =>
    call("GET", `/api/classes/${id}/risk`, who);
  const list = (people: People<typeof cast>, who: SignedInUser = people.teacher) =>
    riskList(who, classId);
  const share = (who: SignedInUser | undefined, shareExplanation: unknown) =>
    call("PATCH", "/api/me/sharing", who, { shareExplanation });
  const note = (who: SignedInUser | undefined, student: string, body: object, id = classId) =>
    call("POST", `/api/classes/${id}/students/${student}/notes`, who, body);

  test.beforeAll(async ({ t, people }) => {
    ({ call, riskList, predict } = api(t));
    ({ classId, otherClassId } = await staffClasses(
      t,
      people,
      [people.amy, people.ben, people.cleo, people.dan],
      "Maths 10B",
    ));
    await predict(people.amy, struggling);
    await predict(people.ben, doingWell);
    await predict(people.dan, middling);
    await predict(people.otherStudent, struggling);
    expect((await share(people.ben, true)).statusCode).toBe(200);
  }, 120_000);

  test("lists every enrolled student, at risk first, then by predicted final, the silent last", async ({
    people,
  }) => {
    const r = await list(people);
    expect(r.class).toMatchObject({ id: classId, name: "Maths 10B", subject: "mat" });
    expect(r.items.map((i) => i.name)).toEqual([
      "Amy Struggling",
      "=HYPERLINK(1) Dan",
      "Ben Sharing",
      "Cleo Silent",
    ]);
    expect(r.counts).toEqual({ students: 4, answered: 3, atRisk: 2 });
    const amyItem = riskItemOf(r, people.amy);
    expect(amyItem).toMatchObject({ answered: true, atRisk: true, band: "improve" });
    expect(amyItem.prediction).toBeLessThan(7);
    expect(amyItem.interval!.low).toBeLessThanOrEqual(amyItem.prediction!);
    expect(amyItem.modelSetup).toBe("A");
    expect(amyItem.noFinalScoreRisk).toEqual(expect.any(Number));
    expect(amyItem.answeredAt).toEqual(expect.any(String));
    expect(riskItemOf(r, people.ben)).toMatchObject({ atRisk: false, band: "congratulations" });
    // Nobody outside the class is on it.
    expect(r.items.some((i) => i.studentId === people.otherStudent.user.uid)).toBe(false);
  });

  test("lists a student who has not answered as such, with no figures and no reasons", async ({
    people,
  }) => {
    const item = riskItemOf(await list(people), people.cleo);
    expect(item).toMatchObject({
      answered: false,
      answeredAt: null,
      prediction: null,
      interval: null,
      noFinalScoreRisk: null,
      modelSetup: null,
      atRisk: false,
      reasons: null,
      explanation: null,
    });
    expect(riskCells(item)[riskColumns.indexOf("Predicted final")]).toBe(riskMessages.notAnswered);
  });

  test("shows a teacher reasons from the school record only, the other answers summed", async ({
    people,
  }) => {
    for (const who of [people.teacher, people.coTeacher, people.admin]) {
      const res = await risk(who);
      const item = riskItemOf(classRiskSchema.parse(res.json()), people.amy);
      expect(item.shared).toBe(false);
      expect(item.explanation).toBeNull();
      expect(item.reasons).toHaveLength(3);
      for (const reason of item.reasons!) {
        expect([...schoolRecordKeys, otherAnswersFeature]).toContain(reason.feature);
      }
      // No private answer is named anywhere in Amy's part of the answer.
      const text = JSON.stringify(item);
      for (const key of privateKeys) expect(text).not.toContain(`"${key}"`);
    }
    // "Other answers" is exactly the sum of the private answers' effects the student sees.
    const mine = (
      await call("GET", "/api/predictions/mine", people.amy)
    ).json() as PredictionHistory;
    const contributions = mine.latest!.contributions;
    const privateSum = contributions
      .filter((c) => !isSchoolRecordKey(c.feature))
      .reduce((s, c) => s + c.effect, 0);
    const r = await list(people);
    const all = [...riskItemOf(r, people.amy).reasons!];
    const other = all.find((x) => x.feature === otherAnswersFeature);
    const top = [...contributions]
      .filter((c) => isSchoolRecordKey(c.feature))
      .map((c) => Math.abs(c.effect))
      .concat(Math.abs(privateSum))
      .sort((a, b) => b - a)
      .slice(0, 3);
    expect(all.map((x) => Math.abs(x.effect))).toEqual(top.map((x) => expect.closeTo(x, 9)));
    if (other) expect(other.effect).toBeCloseTo(privateSum, 9);
  });

  test("refuses the list to everyone but the class's teachers and admins", async ({ people }) => {
    const cases: [SignedInUser | undefined, number, string][] = [
      [undefined, 401, "unauthorized"],
      [people.otherTeacher, 404, "not_found"],
      [people.unverifiedTeacher, 403, "email_not_verified"],
      [people.pendingTeacher, 403, "forbidden"],
      [people.amy, 403, "forbidden"],
      [people.otherStudent, 403, "forbidden"],
    ];
    for (const [who, status, code] of cases) {
      for (const url of [`/api/classes/${classId}/risk`, `/api/classes/${classId}/risk.csv`]) {
        const res = await call("GET", url, who);
        expect(res.statusCode, `${who?.user.name} ${url}`).toBe(status);
        expect(errorOf(res.body).code).toBe(code);
        expect(res.body).not.toContain(people.amy.user.name);
      }
    }
    // A teacher reads their own class's list only, an admin any.
    expect((await risk(people.otherTeacher, otherClassId)).statusCode).toBe(200);
    expect((await risk(people.teacher, otherClassId)).statusCode).toBe(404);
    expect((await risk(people.admin, otherClassId)).statusCode).toBe(200);
    expect((await risk(people.teacher, "not-a-uuid")).statusCode).toBe(404);
  });

  test("shows the full explanation of a student who shares it, and stops when she stops", async ({
    t,
    people,
  }) => {
    const benItem = riskItemOf(await list(people, people.coTeacher), people.ben);
    expect(benItem.shared).toBe(true);
    const features = benItem.explanation!.map((r) => r.feature);
    expect(features).toEqual(expect.arrayContaining(["goout", "famrel", "health", "romantic"]));
    expect(features).not.toContain(otherAnswersFeature);
    expect(benItem.reasons).toEqual(benItem.explanation!.slice(0, 3));

    // Amy opts in: her teachers see everything; then she opts out again.
    // Issue 26: the teachers it would apply to are named.
    expect(sharingSchema.parse((await call("GET", "/api/me/sharing", people.amy)).json())).toEqual({
      shareExplanation: false,
      changedAt: null,
      sharedWith: [],
      notSharedWith: expect.arrayContaining([
        { id: people.teacher.user.uid, name: "Class Teacher" },
        { id: people.coTeacher.user.uid, name: "Co Teacher" },
      ]),
    });
    const on = await share(people.amy, true);
    expect(on.statusCode).toBe(200);
    expect(sharingSchema.parse(on.json()).shareExplanation).toBe(true);
    const shared = riskItemOf(await list(people), people.amy);
    expect(shared.shared).toBe(true);
    expect(shared.explanation!.map((r) => r.feature)).toEqual(
      expect.arrayContaining(["goout", "romantic"]),
    );
    expect((await share(people.amy, false)).statusCode).toBe(200);
    const back = riskItemOf(await list(people), people.amy);
    expect(back).toMatchObject({ shared: false, explanation: null });
    expect(JSON.stringify(back)).not.toContain('"goout"');
    const actions = (await auditOf(t, "student.explanation_shared", people.amy.user.uid)).length;
    expect(actions).toBe(1);
    expect(await auditOf(t, "student.explanation_unshared", people.amy.user.uid)).toHaveLength(1);
    // Setting what is already set changes nothing and writes no audit entry.
    await share(people.amy, false);
    expect(await auditOf(t, "student.explanation_unshared", people.amy.user.uid)).toHaveLength(1);
  });

  test("takes the sharing choice from the student only, and only true or false", async ({
    people,
  }) => {
    for (const body of [{ shareExplanation: "yes" }, {}, { shareExplanation: true, x: 1 }]) {
      const res = await call("PATCH", "/api/me/sharing", people.cleo, body);
      expect(res.statusCode).toBe(400);
      expect(errorOf(res.body).code).toBe("validation_failed");
    }
    expect((await call("GET", "/api/me/sharing", people.cleo)).json()).toMatchObject({
      shareExplanation: false,
    });
    for (const who of [people.teacher, people.admin]) {
      expect((await share(who, true)).statusCode).toBe(403);
    }
    expect((await share(undefined, true)).statusCode).toBe(401);
  });

  test("shows no figure of a prediction an earlier model made: the student is listed as updating", async ({
    t,
    people,
  }) => {
    const late = await signIn(t, "student", { name: "Lena Earlier" });
    const lateClass = await makeClass(t, {
      teachers: [people.teacher.user.uid],
      students: [late.user.uid],
    });
    await t.database.db
      .insertInto("predictions")
      .values({
        user_id: late.user.uid,
        inputs: JSON.stringify(struggling),
        score: 4,
        raw_score: 4,
        interval_low: 2,
        interval_high: 6,
        extrapolation: false,
        model_version: "an earlier model",
      })
      .execute();
    // Issue 29: a prediction of another model is stale, its recomputation is queued, and no
    // figure of it is shown as current meanwhile.
    const r = classRiskSchema.parse((await risk(people.teacher, lateClass)).json());
    expect(r.items[0]).toMatchObject({
      answered: true,
      updating: true,
      prediction: null,
      interval: null,
      reasons: null,
      atRisk: false,
    });
    const cells = riskCells(r.items[0]!);
    expect(cells[riskColumns.indexOf("Predicted final")]).toBe(riskMessages.updating);
    expect(cells[riskColumns.indexOf("Reasons")]).toBe("");
    const queued = await t.database.db
      .selectFrom("jobs")
      .select(["kind", "key"])
      .where("key", "=", lateClass)
      .execute();
    expect(queued).toEqual([{ kind: "predictions.recompute", key: lateClass }]);
  });

  test("exports the list as CSV with the screen's columns and rows, formulas defused", async ({
    t,
    people,
  }) => {
    const res = await call("GET", `/api/classes/${classId}/risk.csv`, people.coTeacher);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.headers["content-disposition"]).toMatch(
      /^attachment; filename="risk-Maths-10B-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const rows = parseCsv(res.body.replace(/^\uFEFF/, ""));
    expect(rows[0]).toEqual([...riskColumns]);
    const r = await list(people, people.coTeacher);
    const expected = r.items
      .map((item) => riskCells(item))
      .map((cells) => cells.map((c) => (/^[=+\-@\t\r]/.test(c) ? `'${c}` : c)));
    expect(rows.slice(1)).toEqual(expected);
    expect(rows[2]![0]).toBe("'=HYPERLINK(1) Dan");
    const amyRow = rows.find((row) => row[0] === "Amy Struggling")!;
    for (const key of privateKeys) expect(amyRow.join(",")).not.toContain(key);
    const exports = await auditOf(t, "class.risk_exported", classId);
    expect(exports[0]).toMatchObject({ actor_id: people.coTeacher.user.uid });
  });

  test("the CSV in Portuguese: semicolons, Portuguese headers and the screen's Portuguese cells", async ({
    t,
    people,
  }) => {
    const res = await t.app.inject({
      method: "GET",
      url: `/api/classes/${classId}/risk.csv`,
      headers: { ...people.coTeacher.auth, "accept-language": "pt-PT" },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body.startsWith("\uFEFF")).toBe(true);
    const rows = parseCsv(res.body.slice(1), ";");
    expect(rows[0]).toEqual(riskColumns.map((c) => csvHeaderText(c, "pt-PT")));
    const r = await list(people, people.coTeacher);
    const words = riskWordsOf("pt-PT");
    const expected = r.items
      .map((item) => riskCells(item, words))
      .map((cells) => cells.map((c) => (/^[=+\-@\t\r]/.test(c) ? `'${c}` : c)));
    expect(rows.slice(1)).toEqual(expected);
    // What a Portuguese teacher reads: Sim for the struggling student, a decimal comma, and no
    // English word of the cells.
    const amy = rows.find((row) => row[0] === "Amy Struggling")!;
    expect(amy[1]).toBe("Sim");
    expect(amy[2]).toMatch(/^\d{1,2},\d$/);
    expect(amy[3]).toMatch(/^\d{1,2},\d-\d{1,2},\d$/);
    const cleo = rows.find((row) => row[0] === "Cleo Silent")!;
    expect(cleo[2]).toBe("Ainda não respondeu");
    for (const row of rows.slice(1)) {
      expect(row.slice(1).join(";")).not.toMatch(/\b(Yes|No|Not answered yet|school|student)\b/);
    }
  });

  test("keeps intervention notes for the class's teachers only; the audit log says one was written, never what", async ({
    t,
    people,
  }) => {
    const body = {
      // No question's key in the text ("guardian" is one): the CSV test looks for them in rows.
      action: "Talked with Amy and her family; extra maths help on Tuesdays.",
      doneOn: "2026-11-20",
      followUpOn: "2026-12-04",
    };
    const res = await note(people.teacher, people.amy.user.uid, body);
    expect(res.statusCode, res.body).toBe(201);
    const { note: created } = noteAnswerSchema.parse(res.json());
    expect(created).toMatchObject({ ...body, studentId: people.amy.user.uid });
    expect(created.author).toEqual({ id: people.teacher.user.uid, name: "Class Teacher" });

    for (const who of [people.teacher, people.coTeacher]) {
      const mine = await list(people, who);
      expect(mine.withNotes).toBe(true);
      expect(riskItemOf(mine, people.amy).notes).toEqual([created]);
    }
    // An admin reads the list, without a note: not in the answer, not in the CSV, not in the
    // audit log the admin reads.
    const byAdmin = await risk(people.admin);
    expect(byAdmin.statusCode).toBe(200);
    const adminList = classRiskSchema.parse(byAdmin.json());
    expect(adminList.withNotes).toBe(false);
    expect(adminList.items.every((i) => i.notes === null)).toBe(true);
    expect(riskItemOf(adminList, people.amy).prediction).toEqual(expect.any(Number));
    expect(byAdmin.body).not.toContain("Tuesdays");
    expect(byAdmin.body).not.toContain(created.id);
    const adminCsv = await call("GET", `/api/classes/${classId}/risk.csv`, people.admin);
    expect(adminCsv.statusCode).toBe(200);
    const adminRows = parseCsv(adminCsv.body.replace(/^\uFEFF/, ""));
    expect(adminRows[0]).toEqual([...riskColumnsFor(false)]);
    expect(adminRows[0]).not.toContain("Latest note");
    expect(adminCsv.body).not.toContain("Tuesdays");

    // This note's entry (other tests of the file write notes in the same class, in any order).
    const detailsOf = (e: { details: unknown }): Record<string, unknown> =>
      typeof e.details === "string"
        ? JSON.parse(e.details)
        : (e.details as Record<string, unknown>);
    const entries = (await auditOf(t, "class.note_added", classId)).filter(
      (e) => detailsOf(e).noteId === created.id,
    );
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actor_id: people.teacher.user.uid, target: classId });
    expect(detailsOf(entries[0]!)).toEqual({ noteId: created.id, studentId: people.amy.user.uid });
    const log = await call("GET", "/api/admin/audit?action=class.note_added", people.admin);
    expect(log.statusCode, log.body).toBe(200);
    expect(log.body).toContain(created.id);
    for (const text of [body.action, "Tuesdays", body.doneOn, body.followUpOn]) {
      expect(log.body).not.toContain(text);
    }

    // The newest note is the list's and the CSV's "Latest note".
    const later = await note(people.coTeacher, people.amy.user.uid, {
      action: "Checked in: attending the Tuesday sessions.",
      doneOn: "2026-11-27",
    });
    expect(later.statusCode).toBe(201);
    const notes = riskItemOf(await list(people), people.amy).notes!;
    expect(notes.map((n) => n.doneOn)).toEqual(["2026-11-27", "2026-11-20"]);
    expect(notes[0]!.followUpOn).toBeNull();
    const csv = parseCsv(
      (await call("GET", `/api/classes/${classId}/risk.csv`, people.teacher)).body.replace(
        /^\uFEFF/,
        "",
      ),
    );
    expect(csv[0]).toEqual([...riskColumns]);
    const amyRow = csv.find((row) => row[0] === "Amy Struggling")!;
    expect(amyRow[riskColumns.indexOf("Latest note")]).toBe(
      "2026-11-27: Checked in: attending the Tuesday sessions.",
    );
  });

  test("takes the text out of note entries written to the audit log before notes were the teachers' alone", async ({
    t,
    people,
  }) => {
    // As the previous release wrote them: the note's text and dates in the entry's details.
    const old = {
      noteId: "an-old-note",
      studentId: people.amy.user.uid,
      action: "Old private text.",
    };
    const dated = { ...old, doneOn: "2026-10-01", followUpOn: "2026-10-08" };
    const other = { action: "kept", studentId: people.amy.user.uid };
    const target = `upgrade-${classId}`;
    await t.database.db
      .insertInto("audit_log")
      .values([
        { action: "class.note_added", target, details: JSON.stringify(dated), actor_id: null },
        { action: "class.other_entry", target, details: JSON.stringify(other), actor_id: null },
      ])
      .execute();
    await stripNoteText(t.database.db as unknown as Kysely<unknown>);
    const [entry] = await auditOf(t, "class.note_added", target);
    expect(entry?.details).toEqual({ noteId: old.noteId, studentId: people.amy.user.uid });
    const [untouched] = await auditOf(t, "class.other_entry", target);
    expect(untouched?.details).toEqual(other);
  });

  test("refuses notes from everyone but the class's teachers (admins too), on students outside it, and bad notes, storing nothing", async ({
    t,
    people,
  }) => {
    const count = async () =>
      Number(
        (
          await t.database.db
            .selectFrom("intervention_notes")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const good = { action: "Phoned home.", doneOn: "2026-11-21" };
    type Refusal = [SignedInUser | undefined, string, object, number, string];
    const refusals: Refusal[] = [
      [undefined, people.amy.user.uid, good, 401, "unauthorized"],
      [people.otherTeacher, people.amy.user.uid, good, 404, "not_found"],
      [people.unverifiedTeacher, people.amy.user.uid, good, 403, "email_not_verified"],
      [people.pendingTeacher, people.amy.user.uid, good, 403, "forbidden"],
      [people.amy, people.amy.user.uid, good, 403, "forbidden"],
      [people.admin, people.amy.user.uid, good, 403, "forbidden"],
      [people.teacher, people.otherStudent.user.uid, good, 404, "not_found"],
      [people.teacher, "not-a-uuid", good, 404, "not_found"],
      // The class's own teacher, with a note the contract refuses.
      ...[
        { ...good, action: "  " },
        { ...good, doneOn: "2026-02-30" },
        { ...good, followUpOn: "2026-11-01" },
        { ...good, author: "someone" },
        { ...good, action: "x".repeat(1001) },
      ].map((bad): Refusal => [people.teacher, people.amy.user.uid, bad, 400, "validation_failed"]),
    ];
    for (const [who, student, body, status, code] of refusals) {
      const res = await note(who, student, body);
      expect(res.statusCode, `${who?.user.name} ${JSON.stringify(body)}: ${res.body}`).toBe(status);
      expect(errorOf(res.body).code).toBe(code);
    }
    const late = await note(people.teacher, people.amy.user.uid, {
      ...good,
      followUpOn: "2026-11-01",
    });
    expect(errorOf(late.body).fields).toHaveProperty("followUpOn");
    expect(await count()).toBe(before);
    // The other class's notes are not on this list, nor this class's on the other's.
    expect(
      (await note(people.otherTeacher, people.otherStudent.user.uid, good, otherClassId))
        .statusCode,
    ).toBe(201);
    const mine = await list(people);
    expect(mine.items.flatMap((i) => i.notes ?? []).some((n) => n.action === good.action)).toBe(
      false,
    );
  });

  test("answers in the shapes its route schemas declare", async ({ people }) => {
    const check = (
      route:
        | "GET /api/classes/:id/risk"
        | "GET /api/classes/:id/risk.csv"
        | "POST /api/classes/:id/students/:uid/notes"
        | "GET /api/me/sharing"
        | "PATCH /api/me/sharing",
      res: { statusCode: number; body: string; json: () => unknown },
    ) => {
      const schemas = routeSchema(route).response as unknown as Record<
        number,
        { safeParse(v: unknown): { success: boolean; error?: unknown } }
      >;
      const schema = schemas[res.statusCode];
      expect(
        schema,
        `${route} answers ${res.statusCode}, a status it does not declare`,
      ).toBeDefined();
      const value = res.statusCode === 200 && route.endsWith(".csv") ? res.body : res.json();
      const parsed = schema!.safeParse(value);
      expect(parsed.success, `${route} ${res.statusCode}: ${String(parsed.error)}`).toBe(true);
    };
    check("GET /api/classes/:id/risk", await risk(people.teacher));
    check("GET /api/classes/:id/risk", await risk(people.otherTeacher));
    check(
      "GET /api/classes/:id/risk.csv",
      await call("GET", `/api/classes/${classId}/risk.csv`, people.admin),
    );
    const done = { action: "Extra help offered.", doneOn: "2026-11-22" };
    check(
      "POST /api/classes/:id/students/:uid/notes",
      await note(people.teacher, people.ben.user.uid, done),
    );
    check(
      "POST /api/classes/:id/students/:uid/notes",
      await note(people.teacher, people.ben.user.uid, {}),
    );
    check(
      "POST /api/classes/:id/students/:uid/notes",
      await note(people.otherTeacher, people.ben.user.uid, done),
    );
    check("GET /api/me/sharing", await call("GET", "/api/me/sharing", people.dan));
    check("PATCH /api/me/sharing", await share(people.dan, true));
    check("PATCH /api/me/sharing", await share(people.dan, "maybe"));
  });
});
