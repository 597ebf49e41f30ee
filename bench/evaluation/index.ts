/**
 * The evaluation page's data call, GET /api/evaluation (an admin: the whole school), over 10,000
 * recorded outcomes, each with a prediction of every setup made before it and an older one of
 * each (60,000 predictions), on PGlite and on PostgreSQL, through Gradecast started as a user
 * starts it (`npm start`, default configuration, RATE_LIMITS=off), beside the bare Node http
 * route in the same run: autocannon in its own process (bench/lib/load.mjs), rounds alternating
 * between the two. Figures: requests per second, p50 and p99, and the p99 ratio to the bare
 * route's, and the first request's time (it scores every outcome; later requests reuse the
 * figures while the outcomes' fingerprint is unchanged). Issue 29 asks for the page's p99 on
 * 10,000 outcomes beside the baseline; it sets no limit.
 *
 * Run: npx tsx bench/evaluation/index.ts [--outcomes 10000] [--seconds 10] [--rounds 2]
 *   [--clients 4] [--skip-postgres]
 */
import { sql } from "kysely";
import { mulberry32 } from "../../packages/model/src/prng.ts";
import { numberArgs } from "../lib/args.ts";
import {
  bareGet,
  type LoadResult,
  printRunStart,
  runBench,
  runLoad,
  type Started,
  withBareRoute,
} from "../lib/load.ts";
import { onPgliteThenPostgres } from "../lib/postgres.ts";
import { inChunks, studentRow, writeClasses } from "../lib/school-rows.ts";
import { type BenchDb, seedDatabase, withDataDir, withGradecast } from "../lib/seeded.ts";
import { makeAdmin, signIn } from "../lib/staff.ts";

const options = numberArgs({ outcomes: 10_000, seconds: 10, rounds: 2, clients: 4 });
const CLASSES = 40;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The school's rows, written straight into the database before the server starts. */
async function writeSchool(db: BenchDb) {
  const rand = mulberry32(29);
  const classIds = await writeClasses(db, CLASSES);
  const day = (d: number) => new Date(Date.UTC(2025, 8, 1) + d * 86_400_000).toISOString();
  const chunk = 500;
  for (let start = 0; start < options.outcomes; start += chunk) {
    const n = Math.min(chunk, options.outcomes - start);
    const students = Array.from({ length: n }, (_, i) => studentRow(start + i));
    await db.insertInto("users").values(students).execute();
    const records = students.map((s, i) => {
      const sat = rand() > 0.08;
      return {
        class_id: classIds[(start + i) % CLASSES]!,
        student_id: s.id,
        g3: sat ? Math.floor(rand() * 21) : null,
        sat: sat ? null : false,
        outcome_at: day(300),
      };
    });
    await db
      .insertInto("enrolments")
      .values(records.map((r) => ({ class_id: r.class_id, student_id: r.student_id })))
      .execute();
    await db.insertInto("school_records").values(records).execute();
    const predictions = records.flatMap((r) =>
      (["C", "B", "A"] as const).flatMap((setup, k) =>
        [10, 20].map((offset) => {
          const scoreIfSits = rand() * 20;
          const risk = rand() * 0.4;
          return {
            user_id: r.student_id,
            class_id: r.class_id,
            inputs: JSON.stringify({
              sex: rand() < 0.5 ? "F" : "M",
              age: 15 + Math.floor(rand() * 5),
              address: rand() < 0.7 ? "U" : "R",
            }),
            score: (1 - risk) * scoreIfSits,
            raw_score: (1 - risk) * scoreIfSits,
            interval_low: Math.max(0, scoreIfSits - 3),
            interval_high: Math.min(20, scoreIfSits + 3),
            extrapolation: false,
            model_version: "bench",
            model_setup: setup,
            score_if_sits: scoreIfSits,
            no_final_score_risk: risk,
            created_at: sql<never>`${day(offset + k * 90)}::timestamptz`,
            made_by: "school" as const,
          };
        }),
      ),
    );
    await inChunks(predictions, 1000, (slice) =>
      db.insertInto("predictions").values(slice).execute(),
    );
  }
}

interface Measured {
  bare: LoadResult[];
  page: LoadResult[];
  bytes: number;
  loadSeconds: number;
  /** The first request: every outcome scored (later ones reuse it until an outcome changes). */
  coldMs: number;
}

async function benchDialect(label: string, bare: Started, databaseUrl?: string): Promise<Measured> {
  return withDataDir("evaluation", async (dataDir) => {
    const { written: admin, loadSeconds } = await seedDatabase(dataDir, databaseUrl, async (db) => {
      const admin = await makeAdmin(db);
      await writeSchool(db);
      return admin;
    });
    return withGradecast(dataDir, databaseUrl, async (server) => {
      const auth = await signIn(server.url, admin);
      const coldStart = performance.now();
      const first = await fetch(`${server.url}/api/evaluation`, { headers: auth });
      if (first.status !== 200)
        throw new Error(`evaluation: ${first.status} ${await first.text()}`);
      const body = (await first.json()) as { outcomes: number; setups: { n: number }[] };
      if (body.outcomes !== options.outcomes)
        throw new Error(`expected ${options.outcomes} outcomes, got ${body.outcomes}`);
      const bytes = JSON.stringify(body).length;
      const coldMs = performance.now() - coldStart;
      process.stdout.write(
        `  ${label}: ${options.outcomes} outcomes, ${body.setups.map((s) => s.n).join("/")} per setup, loaded in ${loadSeconds.toFixed(1)} s; measuring…\n`,
      );
      const page = [{ method: "GET" as const, path: "/api/evaluation", headers: auth }];
      const seconds = Math.max(1, Math.round(options.seconds / options.rounds));
      const opts = { connections: options.clients, seconds };
      await runLoad(server.url, page, { ...opts, seconds: 2 });
      const out: Measured = { bare: [], page: [], bytes, loadSeconds, coldMs };
      for (let r = 0; r < options.rounds; r++) {
        out.bare.push(await runLoad(bare.url, bareGet, { ...opts, serverPid: bare.pid }));
        out.page.push(await runLoad(server.url, page, { ...opts, serverPid: server.pid }));
      }
      return out;
    });
  });
}

async function main() {
  printRunStart(
    `GET /api/evaluation (admin, whole school), ${options.outcomes} outcomes, ${options.clients} connections, ${options.rounds} alternating rounds of ${Math.round(options.seconds / options.rounds)} s`,
  );
  // A GET has no body to vary: the one request is the page's, on every round.
  const results = await withBareRoute(bareGet, options.clients, "(GET)", (bare) =>
    onPgliteThenPostgres((label, url) => benchDialect(label, bare, url)),
  );
  // autocannon reports whole milliseconds: a bare p99 under 1 ms is taken as 1 ms for the ratio.
  console.log("\n| what | req/s | p50 ms | p99 ms | server CPU ms/req | p99 ratio to bare |");
  console.log("| --- | --- | --- | --- | --- | --- |");
  for (const [label, r] of results) {
    const bareP99 = median(r.bare.map((x) => x.p99));
    for (const [what, rs] of [
      ["bare http route (same rounds)", r.bare],
      ["evaluation page", r.page],
    ] as const) {
      const p99 = median(rs.map((x) => x.p99));
      console.log(
        `| ${label}: ${what} | ${median(rs.map((x) => x.rps)).toFixed(1)} | ${median(rs.map((x) => x.p50)).toFixed(1)} | ${p99.toFixed(1)} | ${median(rs.map((x) => x.serverCpuPerRequest)).toFixed(2)} | ${(p99 / Math.max(bareP99, 1)).toFixed(0)}x |`,
      );
    }
    console.log(
      `${label}: first request (scoring every outcome) ${r.coldMs.toFixed(0)} ms; answer ${(r.bytes / 1024).toFixed(1)} KiB; rows written in ${r.loadSeconds.toFixed(1)} s`,
    );
  }
}

runBench(main);
