/**
 * The analytics report's data call, GET /api/analytics/report, over a synthetic school of
 * 100,000 reports and 10,000 predictions (5,000 students, 2 predictions each), on PGlite and on
 * PostgreSQL, through the real server on loopback: p50 and p99 for the staff report (every
 * aggregate) and a student's report (own rows and the cohort), beside a bare Fastify route
 * measured in the same run. Target: staff report p99 under 150 ms on PostgreSQL.
 *
 * Run: npx tsx bench/analytics/index.ts [--n 200] [--reports 100000] [--skip-postgres]
 * PostgreSQL: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test;
 * the bench creates a database of its own there and drops it at the end.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import Fastify from "fastify";
import pg from "pg";
import {
  type DemoSchool,
  generateDemoSchool,
  insertDemoSchool,
} from "../../apps/server/src/analytics/demo-school.ts";
import { createEmbedSigner } from "../../apps/server/src/analytics/embed-token.ts";
import { buildApp } from "../../apps/server/src/app.ts";
import { loadConfig } from "../../apps/server/src/config.ts";
import { type Database, migrate, openDatabase } from "../../apps/server/src/db/database.ts";
import { loadDefaultModel } from "../../packages/model/src/index.ts";

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) || fallback : fallback;
};
const N = arg("n", 200);
const REPORTS = arg("reports", 100_000);
const STUDENTS = Math.round(REPORTS / 20);
const skipPostgres = process.argv.includes("--skip-postgres");
const pgAdminUrl =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  "postgres://postgres@127.0.0.1:5432/test";

interface Stats {
  p50: number;
  p99: number;
  mean: number;
}

function stats(samples: number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
  return { p50: at(0.5), p99: at(0.99), mean: s.reduce((a, b) => a + b, 0) / s.length };
}

async function measure(url: string, n: number, warmup = 10): Promise<Stats> {
  for (let i = 0; i < warmup; i++) {
    const res = await fetch(url);
    if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  }
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const res = await fetch(url);
    await res.arrayBuffer();
    samples.push(performance.now() - t);
  }
  return stats(samples);
}

async function bareBaseline(n: number): Promise<Stats> {
  const app = Fastify({ logger: false });
  app.get("/ping", async () => ({ ok: true }));
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  try {
    return await measure(`http://127.0.0.1:${port}/ping`, n, 50);
  } finally {
    await app.close();
  }
}

async function benchDialect(
  label: string,
  database: Database,
  school: DemoSchool,
): Promise<{ staff: Stats; student: Stats; bytes: number; loadSeconds: number }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "gradecast-bench-analytics-"));
  try {
    await migrate(database.db);
    const t0 = performance.now();
    await insertDemoSchool(database.db, school, { student: "x", teacher: "x", admin: "x" });
    const loadSeconds = (performance.now() - t0) / 1000;
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent", RATE_LIMITS: "off" });
    const app = await buildApp({ config, database, logger: false });
    await app.listen({ port: 0, host: "127.0.0.1" });
    const address = app.server.address();
    const port = typeof address === "object" && address ? address.port : 0;
    try {
      const signer = await createEmbedSigner(config);
      const teacher = school.users.find((u) => u.role === "teacher")!;
      const student = school.users.find((u) => u.role === "student")!;
      // An embed token names a live session of its viewer, as a sign-in makes one.
      const sessionOf = async (userId: string) => {
        const sessionId = randomUUID();
        await database.db
          .insertInto("sessions")
          .values({
            family_id: sessionId,
            user_id: userId,
            token_hash: randomUUID(),
            expires_at: new Date(Date.now() + 86_400_000),
          })
          .execute();
        return sessionId;
      };
      const url = async (userId: string, scope: "staff" | "student") => {
        const sessionId = await sessionOf(userId);
        const { token } = await signer.sign({ userId, sessionId, scope }, new Date());
        return `http://127.0.0.1:${port}/api/analytics/report?token=${token}`;
      };
      const staffUrl = await url(teacher.id, "staff");
      const res = await fetch(staffUrl);
      const bytes = (await res.arrayBuffer()).byteLength;
      process.stdout.write(`  ${label}: loaded in ${loadSeconds.toFixed(1)} s; measuring…\n`);
      const staff = await measure(staffUrl, N);
      const studentStats = await measure(await url(student.id, "student"), N);
      return { staff, student: studentStats, bytes, loadSeconds };
    } finally {
      await app.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const model = loadDefaultModel();
  const t0 = performance.now();
  const school = generateDemoSchool(model, {
    seed: 7,
    students: STUDENTS,
    teachers: 40,
    reports: REPORTS,
    predictionsPerStudent: [2, 2],
    questionnaireShare: 1,
    now: new Date("2026-06-30T12:00:00Z"),
  });
  console.log(
    `school: ${school.reports.length} reports, ${school.predictions.length} predictions, ` +
      `${STUDENTS} students (generated in ${((performance.now() - t0) / 1000).toFixed(1)} s); ` +
      `${N} sequential requests per figure, after 10 warm-up requests`,
  );

  const baseline = await bareBaseline(N * 5);
  const results: [string, Awaited<ReturnType<typeof benchDialect>>][] = [];

  const pglite = await openDatabase({});
  try {
    results.push(["PGlite", await benchDialect("PGlite", pglite, school)]);
  } finally {
    await pglite.close();
  }

  if (!skipPostgres) {
    const name = `gradecast_bench_${randomBytes(5).toString("hex")}`;
    const admin = new pg.Client({ connectionString: pgAdminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(pgAdminUrl);
    url.pathname = `/${name}`;
    const database = await openDatabase({ url: url.toString(), poolSize: 10 });
    try {
      results.push(["PostgreSQL", await benchDialect("PostgreSQL", database, school)]);
    } finally {
      await database.close();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  }

  const fmt = (x: number) => x.toFixed(2).padStart(9);
  console.log(
    "\nper request over loopback, milliseconds:      p50       p99      mean   p99 ratio",
  );
  console.log(
    `bare Fastify route (baseline)         ${fmt(baseline.p50)} ${fmt(baseline.p99)} ${fmt(baseline.mean)}`,
  );
  for (const [label, r] of results) {
    for (const [what, s] of [
      ["staff report", r.staff],
      ["student report", r.student],
    ] as const) {
      const line = `${label} ${what}`.padEnd(37);
      console.log(
        `${line} ${fmt(s.p50)} ${fmt(s.p99)} ${fmt(s.mean)} ${(s.p99 / baseline.p99).toFixed(0).padStart(8)}x`,
      );
    }
  }
  for (const [label, r] of results) {
    console.log(`${label}: staff answer ${(r.bytes / 1024).toFixed(1)} KiB`);
  }
  const postgres = results.find(([label]) => label === "PostgreSQL")?.[1];
  if (postgres) {
    console.log(
      `target: staff report p99 under 150 ms on PostgreSQL: ${postgres.staff.p99 < 150 ? "met" : "NOT met"} (${postgres.staff.p99.toFixed(1)} ms)`,
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
