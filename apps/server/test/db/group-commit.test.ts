import type { PredictionResult } from "@gradecast/contract/prediction";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, describe, expect } from "vitest";
import { storePrediction } from "../../src/prediction/store.ts";
import { apiTests } from "../support/fixtures.ts";
import { dialects } from "../support/helpers.ts";
import { sampleQuestionnaire } from "../support/sample-answers.ts";

// Group commit of stored predictions (docs/decisions/0007-group-commit.md): predictions sent together
// share one insert, each answer comes only after its row is committed (readable by another
// connection), and a batch that fails fails every request in it and stores none of them.

const tests = apiTests({ env: { RATE_LIMITS: "off" } });

describe.each(dialects)("group commit on %s", (dialect) => {
  const test = tests[dialect];
  /** Reads as another process would: connections of its own on PostgreSQL. */
  let readRow: (id: string) => Promise<{ user_id: string; inputs: unknown } | undefined>;
  let closeReader = async () => {};

  test.beforeAll(async ({ t }) => {
    if (t.databaseUrl) {
      const client = new pg.Client({ connectionString: t.databaseUrl });
      await client.connect();
      readRow = async (id) =>
        (await client.query("select user_id, inputs from predictions where id = $1", [id])).rows[0];
      closeReader = () => client.end();
    } else {
      readRow = async (id) =>
        (
          await sql<{
            user_id: string;
            inputs: unknown;
          }>`select user_id, inputs from predictions where id = ${id}`.execute(t.database.db)
        ).rows[0];
    }
  });
  afterAll(async () => {
    await closeReader();
  });

  test("stores every one of 48 concurrent predictions, each readable when it is answered", async ({
    t,
    signedIn,
  }) => {
    const students = await Promise.all([signedIn("student"), signedIn("student")]);
    const sent = Array.from({ length: 48 }, (_, i) => ({
      who: students[i % 2]!,
      // Every body differs (G1 and absences), so no two answers could come from one cache.
      body: { ...sampleQuestionnaire, G1: i % 21, absences: i },
    }));
    const checked = await Promise.all(
      sent.map(async ({ who, body }) => {
        const res = await t.app.inject({
          method: "POST",
          url: "/api/predict",
          headers: who.auth,
          payload: body,
        });
        expect(res.statusCode, res.body).toBe(200);
        const answer = res.json() as PredictionResult;
        // Read at once, before any other answer is awaited: acknowledged means committed.
        const row = await readRow(answer.id!);
        return { answer, row };
      }),
    );
    checked.forEach(({ answer, row }, i) => {
      expect(row, `prediction ${i} was answered before its row was readable`).toBeDefined();
      expect(row!.user_id).toBe(sent[i]!.who.user.uid);
      const inputs = typeof row!.inputs === "string" ? JSON.parse(row!.inputs) : row!.inputs;
      expect(inputs).toMatchObject({ G1: i % 21, absences: i });
      expect(answer.inputs).toMatchObject({ G1: i % 21, absences: i });
    });
    expect(new Set(checked.map((c) => c.answer.id)).size).toBe(48);
    // Rows written by one statement share its transaction's time: fewer times than rows means
    // the predictions went in together.
    const times = await sql<{ n: number }>`
      select count(distinct created_at)::int as n from predictions
      where user_id in (${students[0]!.user.uid}, ${students[1]!.user.uid})`.execute(t.database.db);
    expect(times.rows[0]!.n).toBeLessThan(48);
  });

  test("fails every request of a batch that cannot be stored, stores none of it, and goes on", async ({
    t,
    signedIn,
  }) => {
    const a = await signedIn("student");
    const row = (userId: string, score: number) => ({
      userId,
      inputs: sampleQuestionnaire,
      score,
      rawScore: score,
      intervalLow: score - 2,
      intervalHigh: score + 2,
      extrapolation: false,
      modelVersion: "test",
      modelSetup: "A" as const,
      scoreIfSits: 12.5,
      noFinalScoreRisk: 0.04,
    });
    // No such user: the foreign key refuses this row, and with it the whole batch.
    const gone = "00000000-0000-4000-8000-000000000000";
    const results = await Promise.allSettled([
      storePrediction(t.database.db, row(a.user.uid, 10)),
      storePrediction(t.database.db, row(a.user.uid, 11)),
      storePrediction(t.database.db, row(gone, 12)),
      storePrediction(t.database.db, row(a.user.uid, 13)),
    ]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected", "rejected", "rejected"]);
    const count = async () =>
      (
        await sql<{
          n: number;
        }>`select count(*)::int as n from predictions where user_id = ${a.user.uid}`.execute(
          t.database.db,
        )
      ).rows[0]!.n;
    expect(await count()).toBe(0);
    // The writer is not stuck: the next batch is stored and answered.
    const next = await storePrediction(t.database.db, row(a.user.uid, 14));
    expect((await readRow(next.id))?.user_id).toBe(a.user.uid);
    expect(await count()).toBe(1);
  });
});
