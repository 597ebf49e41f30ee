/**
 * The gradebook's CSV import (issue 29: "2,000 rows in under 1 s of server time"): a file of
 * 2,000 enrolled students with all six values (12,000 values), previewed (?dryRun=true), applied
 * (12,000 entries, 2,000 current rows, one audit entry, one job), and applied again (nothing
 * changes), on PGlite (a data directory, as the server opens it) and on PostgreSQL. The server
 * time is the whole request inside the app (Fastify's inject: parsing, checks, the statements,
 * the answer), with no network.
 * Baseline, in the same rounds through the same database handle: the same 2,000 rows written
 * with one plain multi-row INSERT (school_records), and the writes the import makes without the
 * import (the 12,000 entries and the 2,000 rows, plain INSERTs in one transaction).
 * Run: npx tsx bench/record-import/index.ts [--rows 2000] [--rounds 3] [--skip-postgres]
 */
import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../apps/server/src/app.ts";
import { loadConfig } from "../../apps/server/src/config.ts";
import { type Database, migrate } from "../../apps/server/src/db/database.ts";
import { updateUser } from "../../apps/server/src/db/users.ts";
import { createOrPromoteAdmin } from "../../apps/server/src/users/admin.ts";
import { benchPassword } from "../lib/accounts.ts";
import { numberArg } from "../lib/args.ts";
import { printRunStart, targetLine } from "../lib/load.ts";
import { inChunks } from "../lib/school-rows.ts";
import { onBothDatabases, timed } from "../lib/timed.ts";

const ROWS = numberArg("rows", 2000);
const ROUNDS = numberArg("rounds", 3);
const TARGET_MS = 1000;
type Db = Database["db"];

const valuesOf = (i: number, round: number) => [
  (i + round) % 21,
  (i + 3 + round) % 21,
  (i + round) % 101,
  (i + round) % 5,
  (i + 7 + round) % 21,
];

async function newClass(db: Db, teacherId: string, students: string[], name: string) {
  const { id } = await db
    .insertInto("classes")
    .values({ name, subject: "mat", year: "2026-27", created_by: teacherId, join_code: null })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db.insertInto("class_teachers").values({ class_id: id, teacher_id: teacherId }).execute();
  await db
    .insertInto("enrolments")
    .values(students.map((s) => ({ class_id: id, student_id: s })))
    .execute();
  return id;
}

async function run(name: string, database: Database, dataDir: string) {
  await migrate(database.db);
  const db = database.db;
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent", RATE_LIMITS: "off" });
  const app: FastifyInstance = await buildApp({ config, database, logger: false });
  await app.ready();
  try {
    const email = `bench.${randomBytes(4).toString("hex")}@bench.test`;
    await createOrPromoteAdmin(db, { email, name: "Bench Teacher", password: benchPassword });
    const teacher = await db
      .selectFrom("users")
      .select("id")
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    await updateUser(db, teacher.id, { role: "teacher" }, new Date());
    const login = await app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email, password: benchPassword },
    });
    if (login.statusCode !== 200) throw new Error(`login: ${login.statusCode} ${login.body}`);
    const auth = { authorization: `Bearer ${(login.json() as { token: string }).token}` };

    const tag = randomBytes(3).toString("hex");
    const students = await db
      .insertInto("users")
      .values(
        Array.from({ length: ROWS }, (_, i) => ({
          name: `Pupil ${i}`,
          email: `pupil-${tag}-${i}@bench.test`,
          password_hash: "x",
          role: "student" as const,
          email_verified: true,
        })),
      )
      .returning(["id", "email"])
      .execute();
    const ids = students.map((s) => s.id);

    const upload = (classId: string, file: string, dryRun: boolean) =>
      timed(async () => {
        const res = await app.inject({
          method: "POST",
          url: `/api/classes/${classId}/record/import${dryRun ? "?dryRun=true" : ""}`,
          headers: { ...auth, "content-type": "text/csv" },
          payload: file,
        });
        if (res.statusCode !== 200) throw new Error(`import: ${res.statusCode} ${res.body}`);
        return (res.json() as { changes: unknown[] }).changes.length;
      });

    const figures: Record<string, number[]> = {
      preview: [],
      apply: [],
      repeat: [],
      oneInsert: [],
      plainWrites: [],
    };
    for (let round = 0; round <= ROUNDS; round++) {
      const classId = await newClass(db, teacher.id, ids, `Import ${round}`);
      const file = [
        "email,G1,G2,absences,failures,G3,sat",
        ...students.map((s, i) => [s.email, ...valuesOf(i, round), "yes"].join(",")),
      ].join("\n");
      const preview = await upload(classId, file, true);
      const apply = await upload(classId, file, false);
      const repeat = await upload(classId, file, false);
      if (preview.value !== ROWS * 6 || apply.value !== ROWS * 6 || repeat.value !== 0) {
        throw new Error(`changes: ${preview.value}, ${apply.value}, ${repeat.value}`);
      }
      const rowsOf = (classId: string) =>
        students.map((s, i) => {
          const [g1, g2, absences, failures, g3] = valuesOf(i, round) as number[];
          return { class_id: classId, student_id: s.id, g1, g2, absences, failures, g3, sat: true };
        });
      // Baseline 1: the 2,000 rows in one plain multi-row INSERT.
      const one = await newClass(db, teacher.id, ids, `Insert ${round}`);
      const oneInsert = await timed(() =>
        db.insertInto("school_records").values(rowsOf(one)).execute(),
      );
      // Baseline 2: the import's writes alone, plain INSERTs in one transaction.
      const plain = await newClass(db, teacher.id, ids, `Plain ${round}`);
      const fields = ["G1", "G2", "absences", "failures", "G3", "sat"] as const;
      const plainWrites = await timed(() =>
        db.transaction().execute(async (tx) => {
          const entries = students.flatMap((s, i) => {
            const values = [...valuesOf(i, round), 1];
            return fields.map((field, f) => ({
              class_id: plain,
              student_id: s.id,
              field,
              value: values[f] ?? null,
              set_by: teacher.id,
              set_by_name: "Bench Teacher",
              via: "import" as const,
            }));
          });
          await inChunks(entries, 2000, (slice) =>
            tx.insertInto("record_entries").values(slice).execute(),
          );
          await tx.insertInto("school_records").values(rowsOf(plain)).execute();
        }),
      );
      // Round 0 warms the code paths up; it is not counted.
      if (round === 0) continue;
      figures.preview?.push(preview.ms);
      figures.apply?.push(apply.ms);
      figures.repeat?.push(repeat.ms);
      figures.oneInsert?.push(oneInsert.ms);
      figures.plainWrites?.push(plainWrites.ms);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
    const show = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(", ");
    const base = median(figures.oneInsert ?? []);
    const writes = median(figures.plainWrites ?? []);
    const line = (label: string, xs: number[]) =>
      console.log(
        `| ${name} | ${label} | ${show(xs)} | ${median(xs).toFixed(0)} | ${(median(xs) / base).toFixed(1)}x | ${(median(xs) / writes).toFixed(1)}x |`,
      );
    line("preview (?dryRun=true)", figures.preview ?? []);
    line("apply", figures.apply ?? []);
    line("apply again (nothing changes)", figures.repeat ?? []);
    line("baseline: one multi-row INSERT of the 2,000 rows", figures.oneInsert ?? []);
    line("baseline: the import's writes as plain INSERTs", figures.plainWrites ?? []);
    for (const [label, xs] of [
      ["preview", figures.preview ?? []],
      ["apply", figures.apply ?? []],
    ] as const) {
      const m = median(xs);
      console.log(
        targetLine(
          `${name} ${label} of ${ROWS} rows under ${TARGET_MS} ms of server time`,
          m < TARGET_MS,
          `${m.toFixed(0)} ms (one multi-row INSERT ${base.toFixed(0)} ms, ratio ${(m / base).toFixed(1)}; the import's writes as plain INSERTs ${writes.toFixed(0)} ms, ratio ${(m / writes).toFixed(1)})`,
        ),
      );
    }
  } finally {
    await app.close();
  }
}

printRunStart(`${ROWS} rows x 6 values, ${ROUNDS} rounds after a warm-up`);
console.log(
  "| database | request | ms (rounds) | median ms | against one INSERT | against the plain writes |",
);
console.log("| --- | --- | --- | --- | --- | --- |");
await onBothDatabases("record-import", run);
