import { randomBytes } from "node:crypto";
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
  removeDemoSchool,
} from "./demo-school.ts";

// npm run seed:demo [-- --force] [--seed N] [--students N] [--reports N]
// Fills the configured database (DATABASE_URL, or PGlite under DATA_DIR, as `npm start` reads
// them) with a synthetic school, so that a new user sees a full report at once. A previous demo
// school is replaced; accounts that are not demo accounts are left alone, and their presence
// stops the script unless --force is given.
const usage = `Usage: npm run seed:demo -- [--force] [--seed N] [--students N] [--reports N]`;

function parseArgs(argv: string[]) {
  const options = { force: false, seed: defaultDemoOptions.seed, students: 300, reports: 1000 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--force") options.force = true;
    else if (arg === "--seed" || arg === "--students" || arg === "--reports") {
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
    const school = generateDemoSchool(loadDefaultModel(), {
      seed: args.seed,
      students: args.students,
      reports: args.reports,
      now: new Date(),
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
    process.stdout.write(
      [
        "",
        `Demo school (seed ${args.seed}) written to ${database.kind === "pglite" ? `PGlite in ${database.location}` : `PostgreSQL at ${database.location}`} in ${((Date.now() - started) / 1000).toFixed(1)} s:`,
        `  ${students.length} students, ${teachers.length} teachers, ${school.reports.length} reports, ${school.questionnaires.length} questionnaires, ${school.predictions.length} predictions.`,
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
