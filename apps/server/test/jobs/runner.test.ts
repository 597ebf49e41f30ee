import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { type RawBuilder, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { buildApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import { type Database, migrate, openDatabase } from "../../src/db/database.ts";
import { enqueueJob, type JobHandler } from "../../src/jobs/queue.ts";
import { apiTests } from "../support/fixtures.ts";
import { createPostgresDatabase, dialects, type TestApp } from "../support/helpers.ts";

// The background job runner (issue 29): a job runs once and records its progress; a job that
// throws is tried again, then fails with its message; a job whose instance died runs again after
// a restart; two instances on one database never run a job twice; jobs of one kind and key never
// run at the same time; asking again while a job waits adds nothing.

/** Runs of each job, by key. */
const runs = new Map<string, number>();
const count = (key: string) => runs.set(key, (runs.get(key) ?? 0) + 1);

const handlers: Record<string, JobHandler> = {
  "test.count": async ({ job, progress }) => {
    count(job.key);
    await progress(1, 2);
    await new Promise((resolve) => setImmediate(resolve));
    await progress(2, 2);
  },
  "test.fail": async ({ job }) => {
    count(job.key);
    throw new Error(`The sums for ${job.key} do not add up\n    at secret (/srv/app.ts:1:1)`);
  },
};
// Retries are due at once, so that waiting for the queue to empty needs no clock.
const jobOptions = { retryBaseMs: 0, maxAttempts: 3 };

const tests = apiTests({ env: { RATE_LIMITS: "off" }, jobHandlers: handlers, jobOptions });

async function jobRow(t: Pick<TestApp, "database">, id: string) {
  return t.database.db
    .selectFrom("jobs")
    .selectAll()
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
}

/** A job of `kind` with a key of its own, once the runner is done with it: its key and row. */
async function ranJob(t: TestApp, kind: string) {
  const key = randomUUID();
  const id = await enqueueJob(t.database.db, { kind, key });
  await t.app.jobs.idle();
  return { key, row: await jobRow(t, id) };
}

/** A server on an existing database, as another process or a restarted one would be. */
async function serverOn(database: Database, dataDir: string): Promise<FastifyInstance> {
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent", RATE_LIMITS: "off" });
  const app = await buildApp({
    config,
    database,
    logger: false,
    jobHandlers: handlers,
    jobOptions,
  });
  await app.ready();
  return app;
}

/** A "test.count" job another instance claimed: running, its lease held until `lockedUntil`. */
async function claimedJob(
  database: Database,
  key: string,
  claim: { lockedBy: string; lockedUntil: RawBuilder<Date>; startedAt: RawBuilder<Date> },
): Promise<string> {
  const row = await database.db
    .insertInto("jobs")
    .values({
      kind: "test.count",
      key,
      payload: "{}",
      state: "running",
      attempts: 1,
      locked_by: claim.lockedBy,
      locked_until: claim.lockedUntil,
      started_at: claim.startedAt,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A job another instance claimed and then died holding: running, its lease run out. */
function abandonedJob(database: Database, key: string): Promise<string> {
  return claimedJob(database, key, {
    lockedBy: "a-dead-instance",
    lockedUntil: sql<Date>`now() - interval '1 minute'`,
    startedAt: sql<Date>`now() - interval '2 minutes'`,
  });
}

describe.each(dialects)("job runner on %s", (dialect) => {
  const test = tests[dialect];

  test("runs a job once and records its progress", async ({ t }) => {
    const { key, row } = await ranJob(t, "test.count");
    expect(row.state).toBe("done");
    expect([row.progress_done, row.progress_total]).toEqual([2, 2]);
    expect(row.attempts).toBe(1);
    expect(row.started_at).not.toBeNull();
    expect(row.finished_at).not.toBeNull();
    expect(row.locked_by).toBeNull();
    expect(runs.get(key)).toBe(1);
    // Nothing runs it again.
    await t.app.jobs.idle();
    expect(runs.get(key)).toBe(1);
  });

  test("retries a job that throws, then fails it with its message", async ({ t }) => {
    const { key, row } = await ranJob(t, "test.fail");
    expect(row.state).toBe("failed");
    expect(row.attempts).toBe(3);
    expect(runs.get(key)).toBe(3);
    expect(row.error).toBe(`The sums for ${key} do not add up`);
    expect(row.finished_at).not.toBeNull();
  });

  test("asking again while a job waits adds nothing", async ({ t }) => {
    const key = randomUUID();
    // A kind no handler of this instance takes: the job stays queued.
    const first = await enqueueJob(t.database.db, { kind: "test.elsewhere", key });
    const again = await enqueueJob(t.database.db, { kind: "test.elsewhere", key });
    const inTransaction = await t.database.db
      .transaction()
      .execute((tx) => enqueueJob(tx, { kind: "test.elsewhere", key, payload: { more: 1 } }));
    expect(again).toBe(first);
    expect(inTransaction).toBe(first);
    const other = await enqueueJob(t.database.db, { kind: "test.elsewhere", key: `${key}-b` });
    expect(other).not.toBe(first);
    await t.app.jobs.idle();
    const rows = await t.database.db
      .selectFrom("jobs")
      .select(["id", "state"])
      .where("kind", "=", "test.elsewhere")
      .where("key", "=", key)
      .execute();
    expect(rows).toEqual([{ id: first, state: "queued" }]);
  });

  test("a job waits while another of its kind and key runs", async ({ t }) => {
    const key = randomUUID();
    // Another instance is running a job of the same kind and key, its lease alive.
    const held = await claimedJob(t.database, key, {
      lockedBy: "another-instance",
      lockedUntil: sql<Date>`now() + interval '1 hour'`,
      startedAt: sql<Date>`now()`,
    });
    const waiting = await enqueueJob(t.database.db, { kind: "test.count", key });
    await t.app.jobs.idle();
    expect((await jobRow(t, waiting)).state).toBe("queued");
    expect(runs.get(key)).toBeUndefined();
    // The other instance finishes: the waiting job runs.
    await t.database.db
      .updateTable("jobs")
      .set({ state: "done", locked_by: null, locked_until: null, finished_at: sql<Date>`now()` })
      .where("id", "=", held)
      .execute();
    await t.app.jobs.idle();
    expect((await jobRow(t, waiting)).state).toBe("done");
    expect(runs.get(key)).toBe(1);
  });
});

describe("a job whose instance died", () => {
  it.each(dialects)("runs again after a restart (%s)", async (dialect) => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "gradecast-jobs-"));
    const key = randomUUID();
    let drop = async () => {};
    /** The abandoned job, taken up by a live server: done on its second attempt, run once. */
    const expectTakenUp = async (server: FastifyInstance, database: Database, id: string) => {
      await server.jobs.idle();
      const row = await jobRow({ database }, id);
      expect(row.state).toBe("done");
      expect(row.attempts).toBe(2);
      expect(runs.get(key)).toBe(1);
    };
    try {
      if (dialect === "pglite") {
        // The instance that died: its data directory holds a job it was running.
        const before = await openDatabase({ dataDir });
        await migrate(before.db);
        const id = await abandonedJob(before, key);
        await before.close();
        // The restart: a new server on the same directory.
        const database = await openDatabase({ dataDir });
        const app = await serverOn(database, dataDir);
        try {
          await expectTakenUp(app, database, id);
        } finally {
          await app.close();
          await database.close();
        }
      } else {
        const place = await createPostgresDatabase();
        drop = place.drop;
        const first = await openDatabase({ url: place.url, poolSize: 3 });
        await migrate(first.db);
        const second = await openDatabase({ url: place.url, poolSize: 3 });
        const alive = await serverOn(second, dataDir);
        try {
          const id = await abandonedJob(first, key);
          await first.close();
          await expectTakenUp(alive, second, id);
        } finally {
          await alive.close();
          await second.close();
        }
      }
    } finally {
      await drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!dialects.includes("postgres"))("two instances on one PostgreSQL", () => {
  it("never run the same job twice", async () => {
    const place = await createPostgresDatabase();
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "gradecast-jobs-"));
    const databases: Database[] = [];
    const apps: FastifyInstance[] = [];
    try {
      for (let i = 0; i < 2; i++) {
        const database = await openDatabase({ url: place.url, poolSize: 3 });
        if (i === 0) await migrate(database.db);
        databases.push(database);
      }
      for (const database of databases) apps.push(await serverOn(database, dataDir));
      const [db] = databases as [Database];
      const prefix = randomUUID();
      const keys = Array.from({ length: 40 }, (_, i) => `${prefix}-${i}`);
      for (const key of keys) await enqueueJob(db.db, { kind: "test.count", key });
      for (const app of apps) app.jobs.wake();
      let left = keys.length;
      for (let round = 0; round < 100 && left > 0; round++) {
        await Promise.all(apps.map((app) => app.jobs.idle()));
        const row = await db.db
          .selectFrom("jobs")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("state", "<>", "done")
          // Each start also queues the daily privacy job for tomorrow (issue 31): not counted.
          .where("kind", "=", "test.count")
          .executeTakeFirstOrThrow();
        left = Number(row.n);
      }
      expect(left).toBe(0);
      expect(keys.map((key) => runs.get(key))).toEqual(keys.map(() => 1));
      const rows = await db.db
        .selectFrom("jobs")
        .select(["attempts"])
        .where("key", "like", `${prefix}-%`)
        .execute();
      expect(rows.every((r) => r.attempts === 1)).toBe(true);
    } finally {
      for (const app of apps) await app.close();
      for (const database of databases) await database.close();
      await place.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
