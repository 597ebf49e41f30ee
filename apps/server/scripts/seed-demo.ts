import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadDefaultModel } from "@gradecast/model";
import { hashPassword } from "../src/auth/passwords.ts";
import { ConfigError, loadConfig } from "../src/config.ts";
import { lockIfEmbedded } from "../src/db/data-dir-lock.ts";
import { openMigrated } from "../src/db/database.ts";
import {
  countRealUsers,
  defaultDemoOptions,
  demoDomain,
  generateDemoSchool,
  insertDemoSchool,
  parseUciFile,
  removeDemoSchool,
  type UciRow,
  uciSubjectOf,
} from "./demo-school.ts";

// npm run seed:demo [-- --force] [--seed N] [--students N] [--reports N] [--data FILE]...
// Fills the configured database (DATABASE_URL, or PGlite under DATA_DIR, as `npm start` reads
// them) with a synthetic school and its last school year (classes, records, predictions at each
// stage, outcomes), so that a new user sees a full report, gradebook, risk list and evaluation
// at once. The students are drawn from the UCI Student Performance files when they are found
// (--data, or student-mat.csv and student-por.csv in the data folder beside the checkout; the
// product does not ship them), else they are synthetic. A previous demo school is replaced;
// accounts that are not demo accounts are left alone, and their presence stops the script
// unless --force is given.
const usage =
  "Usage: npm run seed:demo -- [--force] [--seed N] [--students N] [--reports N] [--data FILE]...";

/** The UCI files' default place: shared/data beside the repository's checkout. */
const defaultDataDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../../shared/data",
);

function parseArgs(argv: string[]) {
  const options = {
    force: false,
    seed: defaultDemoOptions.seed,
    students: 300,
    reports: 1000,
    data: [] as string[],
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--force") options.force = true;
    else if (arg === "--data") {
      const file = argv[++i];
      if (!file || !uciSubjectOf(file)) {
        throw new Error(
          `--data needs a UCI file named student-mat.csv or student-por.csv.\n${usage}`,
        );
      }
      options.data.push(path.resolve(file));
    } else if (arg === "--seed" || arg === "--students" || arg === "--reports") {
      const value = Number(argv[++i]);
      if (!Number.isInteger(value) || value < 0 || value > 1_000_000) {
        throw new Error(`${arg} needs a whole number from 0 to 1000000.\n${usage}`);
      }
      options[arg.slice(2) as "seed" | "students" | "reports"] = value;
    } else if (arg === "--help" || arg === "-h") {
      process.stdout.write(`${usage}\n`);
      process.exit(0);
    } else throw new Error(`Unknown option ${arg}.\n${usage}`);
  }
  return options;
}

const password = () => randomBytes(9).toString("base64url");

/** The UCI rows of the given files, or of the default folder's files when present. */
function readUci(files: string[]): { rows: UciRow[]; files: string[] } {
  const chosen =
    files.length > 0
      ? files
      : ["student-mat.csv", "student-por.csv"]
          .map((f) => path.join(defaultDataDir, f))
          .filter((f) => existsSync(f));
  const rows = chosen.flatMap((file) =>
    parseUciFile(readFileSync(file, "utf8"), uciSubjectOf(file) ?? "mat"),
  );
  return { rows, files: chosen };
}
async function main() {
  const args = parseArgs(process.argv.slice(2));
  const config = loadConfig();

  // PGlite is one process's database: the same guard as admin:create (DATA_DIR/server.pid).
  const release = await lockIfEmbedded(
    config,
    (pid) =>
      new Error(
        `a Gradecast server (process ${pid}) is running on the embedded database in ${config.dataDir}. ` +
          "Opening it from a second process could corrupt it. Stop the server, run this command, " +
          "then start the server again; or use DATABASE_URL with PostgreSQL.",
      ),
  );

  const database = await openMigrated(config, 2);
  try {
    const real = await countRealUsers(database.db);
    if (real > 0 && !args.force) {
      throw new Error(
        `The database at ${database.location} already has ${real} real account(s). ` +
          "Seeding demo data beside them would mix invented students into real reports. " +
          "Run with --force to do it anyway (npm run seed:demo -- --force).",
      );
    }
    const started = Date.now();
    const uci = readUci(args.data);
    const school = generateDemoSchool(loadDefaultModel(), {
      seed: args.seed,
      students: args.students,
      reports: args.reports,
      now: new Date(),
      uci: uci.rows,
    });
    const passwords = { student: password(), teacher: password(), admin: password() };
    const hashes = {
      student: await hashPassword(passwords.student),
      teacher: await hashPassword(passwords.teacher),
      admin: await hashPassword(passwords.admin),
    };
    await removeDemoSchool(database.db);
    await insertDemoSchool(database.db, school, hashes, (done) =>
      process.stdout.write(`  inserted ${done}\n`),
    );
    const teachers = school.users.filter((u) => u.role === "teacher");
    const students = school.users.filter((u) => u.role === "student");
    const year = school.year;
    const teacherOf = (classId: string) =>
      (year?.classTeachers ?? [])
        .filter((c) => c.class_id === classId)
        .map((c) => teachers.find((t) => t.id === c.teacher_id)?.email ?? "-")
        .join(" and ");
    process.stdout.write(
      [
        "",
        `Demo school (seed ${args.seed}) written to ${database.kind === "pglite" ? `PGlite in ${database.location}` : `PostgreSQL at ${database.location}`} in ${((Date.now() - started) / 1000).toFixed(1)} s:`,
        `  ${students.length} students, ${teachers.length} teachers, ${school.reports.length} reports, ${school.questionnaires.length} questionnaires, ${school.predictions.length} predictions.`,
        ...(year
          ? [
              `  School year ${year.label}: ${year.classes.length} classes, ${year.enrolments.length} enrolments, ${year.records.length} records with outcomes, ${year.predictions.length} predictions at each stage (C, B, A).`,
              uci.rows.length > 0
                ? `  Students drawn from ${uci.rows.length} UCI rows (${uci.files.map((f) => path.basename(f)).join(", ")}).`
                : "  Synthetic students (no UCI file found; give one with --data FILE).",
              "",
              "Classes (sign in as their teacher to see the gradebook, the risk list and the evaluation):",
              ...year.classes.map((c) => `  ${c.name.padEnd(15)} ${teacherOf(c.id)}`),
            ]
          : []),
        "",
        "Demo accounts (new passwords at each run; every account of a role shares its password):",
        `  admin     admin@${demoDomain}  password ${passwords.admin}`,
        `  teachers  ${teachers[0]?.email ?? "-"} … ${teachers.at(-1)?.email ?? "-"}  password ${passwords.teacher}`,
        `  students  ${students[0]?.email ?? "-"} … ${students.at(-1)?.email ?? "-"}  password ${passwords.student}`,
        "",
        "These are demo accounts with shared passwords: do not seed a database that faces the internet.",
        "",
      ].join("\n"),
    );
  } finally {
    await database.close();
    release();
  }
}

main().catch((error) => {
  if (error instanceof ConfigError) {
    process.stderr.write("seed:demo cannot start. Fix these environment variables:\n");
    for (const problem of error.problems) process.stderr.write(`  ${problem}\n`);
  } else {
    process.stderr.write(`seed:demo failed: ${(error as Error).message}\n`);
  }
  process.exit(1);
});
