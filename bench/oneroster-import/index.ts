/**
 * The OneRoster import (issue 34: "10,000 users and 30,000 enrolments in under 10 s"): a generated
 * bundle of 10,000 users (9,600 students, 400 teachers), 400 classes and 30,000 enrolments,
 * previewed (?dryRun=true), applied (400 classes, 30,000 invitations and teachers' places, the
 * import queueing the job that writes the invitation emails), applied again (nothing changes),
 * then that job's own work (one email per address listing its classes, 500 addresses a
 * transaction) timed on its own, on PGlite (a
 * data directory) and on PostgreSQL. The time is the whole request inside the app (inject: the
 * ZIP read and checked, the comparison, the statements, the answer), no network.
 * Baseline, in the same run through the same database handle: the same 30,000 enrolments and
 * 10,000 users as plain multi-row INSERTs into scratch tables (2,000 rows a statement).
 * Run: npx tsx bench/oneroster-import/index.ts [--users 10000] [--enrolments 30000] [--skip-postgres]
 */
import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { buildApp } from "../../apps/server/src/app.ts";
import { loadConfig } from "../../apps/server/src/config.ts";
import { type Database, migrate } from "../../apps/server/src/db/database.ts";
import {
  invitationMailBatch,
  oneRosterJobs,
  writeInvitationMails,
} from "../../apps/server/src/oneroster/invitation-mail.ts";
import type { Services } from "../../apps/server/src/services.ts";
import { signIn } from "../../apps/server/test/support/accounts.ts";
import type { TestApp } from "../../apps/server/test/support/helpers.ts";
import {
  classLine,
  courseLine,
  csv,
  enrolLine,
  headers,
  schoolYear2027,
  userLine,
  zipBundle,
} from "../../apps/server/test/support/oneroster-bundle.ts";
import { numberArg } from "../lib/args.ts";
import { printRunStart, targetLine } from "../lib/load.ts";
import { inChunks } from "../lib/school-rows.ts";
import { onBothDatabases, timed } from "../lib/timed.ts";

const USERS = numberArg("users", 10_000);
const ENROLMENTS = numberArg("enrolments", 30_000);
const CLASSES = Math.max(1, Math.round(USERS / 25));
const TARGET_MS = 10_000;

function bundle(tag: string) {
  const teachers = CLASSES;
  const students = USERS - teachers;
  const users = Array.from({ length: USERS }, (_, i) =>
    userLine(`u${i}`, i < teachers ? "Teacher" : "Pupil", `${i}`, `u${i}-${tag}@bench.test`),
  );
  const classes = Array.from({ length: CLASSES }, (_, i) =>
    classLine(`k${i}`, `Class ${i} ${tag}`, i % 2 ? "c1" : "c2"),
  );
  const enrolments: string[] = [];
  for (let i = 0; i < teachers && enrolments.length < ENROLMENTS; i++) {
    enrolments.push(enrolLine(`e${enrolments.length}`, `k${i}`, `u${i}`, "teacher"));
  }
  for (let n = 0; enrolments.length < ENROLMENTS; n++) {
    const student = teachers + (n % students);
    const klass = (Math.floor(n / students) * 7 + student) % CLASSES;
    enrolments.push(enrolLine(`e${enrolments.length}`, `k${klass}`, `u${student}`, "student"));
  }
  return {
    zip: zipBundle({
      academicSessions: schoolYear2027,
      courses: csv(headers.courses, [
        courseLine("c1", "Maths", "MAT101"),
        courseLine("c2", "Port", "POR12"),
      ]),
      classes: csv(headers.classes, classes),
      users: csv(headers.users, users),
      enrollments: csv(headers.enrollments, enrolments),
    }),
    enrolments: enrolments.length,
  };
}

async function run(name: string, database: Database, dataDir: string) {
  await migrate(database.db);
  const db = database.db;
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: "silent",
    RATE_LIMITS: "off",
    ONEROSTER_SUBJECTS: "MAT101=mat,POR12=por",
  });
  // No job runs: the outbox's mail stays written, not sent, during the timing.
  const app = await buildApp({ config, database, logger: false, runJobs: false });
  await app.ready();
  try {
    const t = { app, config, database, dataDir, now: () => new Date() } as unknown as TestApp;
    const admin = await signIn(t, "admin");
    const tag = randomBytes(3).toString("hex");
    const { zip, enrolments } = bundle(tag);
    const post = (dryRun: boolean) =>
      timed(async () => {
        const res = await app.inject({
          method: "POST",
          url: `/api/admin/oneroster?dryRun=${dryRun}`,
          headers: { ...admin.auth, "content-type": "application/zip" },
          payload: zip,
        });
        if (res.statusCode !== 200) throw new Error(`import: ${res.statusCode} ${res.body}`);
        const r = res.json() as {
          changes: Record<string, { count: number }>;
          emailsQueued: number;
        };
        return r;
      });
    const preview = await post(true);
    const apply = await post(false);
    const repeat = await post(false);
    const invited = apply.value.changes.studentsInvited?.count ?? 0;
    if (invited !== enrolments - CLASSES || repeat.value.changes.studentsInvited?.count !== 0) {
      throw new Error(`invited ${invited}, then ${repeat.value.changes.studentsInvited?.count}`);
    }

    // The invitation-mail job the apply queued, run here (no runner) and timed on its own.
    const job = await db
      .selectFrom("jobs")
      .select("payload")
      .where("kind", "=", oneRosterJobs.invitationMail)
      .where("state", "=", "queued")
      .executeTakeFirstOrThrow();
    const payload = (typeof job.payload === "string" ? JSON.parse(job.payload) : job.payload) as {
      emails: string[];
    };
    const services = { db, config } as unknown as Services;
    const mailJob = await timed(async () => {
      let written = 0;
      for (let at = 0; at < payload.emails.length; at += invitationMailBatch) {
        written += await writeInvitationMails(
          services,
          payload.emails.slice(at, at + invitationMailBatch),
        );
      }
      return written;
    });

    // Baseline: the same rows as plain multi-row INSERTs into scratch tables.
    await sql`create table bench_enrol (sourced_id text, class_id text, user_id text, role text)`.execute(
      db,
    );
    await sql`create table bench_user (sourced_id text, email text, name text)`.execute(db);
    const enrolRows = Array.from({ length: enrolments }, (_, i) => [
      `e${i}`,
      `k${i % CLASSES}`,
      `u${i % USERS}`,
      "student",
    ]);
    const userRows = Array.from({ length: USERS }, (_, i) => [
      `u${i}`,
      `u${i}-${tag}@bench.test`,
      `Pupil ${i}`,
    ]);
    const baseline = await timed(() =>
      db.transaction().execute(async (tx) => {
        const insert = (table: string, rows: string[][]) =>
          inChunks(rows, 2000, (part) =>
            sql`insert into ${sql.table(table)} values ${sql.join(part.map((r) => sql`(${sql.join(r)})`))}`.execute(
              tx,
            ),
          );
        await insert("bench_enrol", enrolRows);
        await insert("bench_user", userRows);
      }),
    );
    await sql`drop table bench_enrol`.execute(db);
    await sql`drop table bench_user`.execute(db);
    const base = baseline.ms;
    const line = (label: string, ms: number) =>
      console.log(`| ${name} | ${label} | ${ms.toFixed(0)} | ${(ms / base).toFixed(1)}x |`);
    line("preview (?dryRun=true)", preview.ms);
    line(`apply (${apply.value.emailsQueued} emails to be written, job queued)`, apply.ms);
    line("apply again (nothing changes)", repeat.ms);
    line(`the job: ${mailJob.value} emails written to the outbox`, mailJob.ms);
    line("baseline: the rows as plain multi-row INSERTs", base);
    for (const [label, ms] of [
      ["preview", preview.ms],
      ["apply", apply.ms],
    ] as const) {
      console.log(
        targetLine(
          `${name} ${label} of ${USERS} users and ${enrolments} enrolments under ${TARGET_MS} ms`,
          ms < TARGET_MS,
          `${ms.toFixed(0)} ms (plain INSERTs ${base.toFixed(0)} ms, ratio ${(ms / base).toFixed(1)})`,
        ),
      );
    }
  } finally {
    await app.close();
  }
}

printRunStart(`${USERS} users, ${CLASSES} classes, ${ENROLMENTS} enrolments`);
console.log("| database | request | ms | against the plain INSERTs |");
console.log("| --- | --- | --- | --- |");
await onBothDatabases("oneroster-import", run);
