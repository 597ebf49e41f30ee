import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../apps/server/src/db/database.ts";
import { startCrashServer, writeUntilKilled } from "./crash-load.ts";
import { call, dialects, password } from "./proof-helpers.ts";
import { sampleAnswers } from "./sample-answers.ts";

// Crash safety of group commit (docs/decisions/0007-group-commit.md): stored predictions from
// several concurrent clients against the real server process, SIGKILL in the middle, a restart
// on the same data. Every prediction the server answered with 200 must be in the database with
// the answers it was sent, and the restart must be clean.
const total = Number(process.env.CRASH_PREDICTIONS ?? 400);
const clients = 8;
const killAfter = Math.round(total * 0.4);

const predictionNumber = (i: number) => ({
  ...sampleAnswers,
  G1: String(i % 21),
  absences: String(i % 90),
});

describe.each(dialects)("crash safety of stored predictions on $dialect", ({ dialect }) => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => {});
  });

  it(`keeps every acknowledged prediction of ${total} through a SIGKILL`, async () => {
    const crash = await startCrashServer(dialect, {}, cleanups);
    const { server, dataDir } = crash;
    const databaseUrl = crash.env.DATABASE_URL;
    const email = `student-${randomBytes(5).toString("hex")}@example.com`;
    const reg = await call(server.url, "POST", "/api/auth/register", {
      body: { name: "Crash Student", email, password },
    });
    expect(reg.status).toBe(201);
    const login = await call(server.url, "POST", "/api/auth/login", { body: { email, password } });
    expect(login.status).toBe(200);
    const token = (login.body as { token: string }).token;

    const acknowledged = await writeUntilKilled(server, {
      total,
      clients,
      killAfter,
      send: (i) =>
        call(server.url, "POST", "/api/predict", {
          body: predictionNumber(i),
          token,
          timeoutMs: 10_000,
        }),
      acknowledgedId: (res) => (res.status === 200 ? (res.body as { id: string }).id : undefined),
    });

    // Restart on the same data: healthy, nothing to repair by hand.
    await (await crash.restart()).server.stop();

    // Every acknowledged prediction is stored, with the answers it was sent.
    let rows: { id: string; inputs: unknown }[];
    if (databaseUrl) {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      rows = (await client.query("select id, inputs from predictions")).rows;
      await client.end();
    } else {
      const database = await openDatabase({ dataDir });
      rows = await database.db.selectFrom("predictions").select(["id", "inputs"]).execute();
      await database.close();
    }
    const stored = new Map(
      rows.map((r) => [r.id, typeof r.inputs === "string" ? JSON.parse(r.inputs) : r.inputs]),
    );
    const missing: string[] = [];
    for (const [id, i] of acknowledged) {
      const inputs = stored.get(id) as Record<string, unknown> | undefined;
      if (!inputs) missing.push(`${id} (${i}): missing`);
      else if (inputs.G1 !== i % 21 || inputs.absences !== i % 90) {
        missing.push(`${id} (${i}): ${JSON.stringify(inputs)}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
