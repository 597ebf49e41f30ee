import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { AdminUser, AuditPage } from "@gradecast/contract/admin";
import type { User } from "@gradecast/contract/auth";
import type { LinkedReport } from "@gradecast/contract/report-students";
import { type Kysely, sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import { type Database, migrate, openDatabase } from "../../src/db/database.ts";
import type { DB } from "../../src/db/schema.ts";
import { totpCode } from "../support/accounts.ts";
import { createPostgresDatabase, dialects } from "../support/helpers.ts";

// Upgrading to classes (issue 17) from the release before them: fixtures/previous-release.sql
// is a database that release made through its own API and pg_dump wrote out (fixtures/README.md
// says how). Loaded into PGlite and PostgreSQL and migrated by the normal start-up path, it keeps
// every row and every value it had, teachers stay teachers (a waiting sign-up keeps waiting), the
// admin's review list shows the teachers who registered themselves, and the old reports (free-text
// names) are read by their authors and admins, and by no other teacher.

const here = path.dirname(fileURLToPath(import.meta.url));
const password = "an old and trusted password";
const email = (name: string) => `${name.toLowerCase().replace(/\W+/g, ".")}@old.example`;

/** The dump as SQL: psql's meta-commands (pg_dump 15.14 and later write \restrict) are not. */
async function fixtureSql(): Promise<string> {
  // Stored gzipped: it is data, not code to read or to de-duplicate against the migrations.
  const file = await readFile(
    path.join(here, "..", "support", "fixtures", "previous-release.sql.gz"),
  );
  const text = gunzipSync(file).toString("utf8");
  return text
    .split("\n")
    .filter((line) => !line.startsWith("\\"))
    .join("\n");
}

/** The previous release's database, loaded from the dump, then opened as a start would open it. */
async function previousReleaseDatabase(
  dialect: (typeof dialects)[number],
  dataDir: string,
): Promise<{ database: Database; drop(): Promise<void> }> {
  const dump = await fixtureSql();
  if (dialect === "pglite") {
    // A data directory of its own: the test template is already migrated to the latest.
    const client = await PGlite.create(path.join(dataDir, "pglite"), { extensions: { pg_trgm } });
    await client.exec(dump);
    await client.close();
    return { database: await openDatabase({ dataDir }), drop: async () => {} };
  }
  const { url, drop } = await createPostgresDatabase("gradecast_upgrade");
  const loader = new pg.Client({ connectionString: url });
  await loader.connect();
  await loader.query(dump);
  await loader.end();
  return { database: await openDatabase({ url, poolSize: 3 }), drop };
}

/**
 * Every table of the database (but the migrator's own) with its stored columns: read before the
 * upgrade, so that afterwards exactly those columns are compared (migrations add columns). A
 * generated column is left out: it is derived from the others, and a migration may redefine it
 * (0032 replaced the lower-cased report name with the accent-folded one).
 */
async function tablesOf(db: Kysely<DB>): Promise<Map<string, string[]>> {
  const { rows } = await sql<{ table: string; column: string }>`
    select c.table_name as table, c.column_name as column
    from information_schema.columns c
    join information_schema.tables t using (table_schema, table_name)
    where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
      and c.table_name not like 'kysely_%' and c.is_generated = 'NEVER'
    order by c.table_name, c.ordinal_position`.execute(db);
  const tables = new Map<string, string[]>();
  for (const { table, column } of rows) tables.set(table, [...(tables.get(table) ?? []), column]);
  return tables;
}

/** Each table's rows (those columns only) as one digest, and how many there are. */
async function contents(db: Kysely<DB>, tables: Map<string, string[]>) {
  const out: Record<string, { rows: number; digest: string }> = {};
  for (const [table, columns] of tables) {
    const list = sql.join(columns.map((c) => sql.ref(c)));
    const { rows } = await sql<{ rows: number; digest: string }>`
      select count(*)::int as rows,
        md5(coalesce(string_agg(r::text, '|' order by r::text), '')) as digest
      from (select ${list} from ${sql.table(table)}) r`.execute(db);
    out[table] = rows[0]!;
  }
  return out;
}

describe.each(dialects)("upgrading the previous release's database on %s", (dialect) => {
  let dataDir: string;
  let database: Database;
  let drop: () => Promise<void>;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let tables: Map<string, string[]>;
  let before: Awaited<ReturnType<typeof contents>>;
  // Read right after the migration, before any test signs in (sign-ins write sessions and the
  // audit log), so that the comparison holds in any order.
  let after: Awaited<ReturnType<typeof contents>>;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), "gradecast-upgrade-"));
    ({ database, drop } = await previousReleaseDatabase(dialect, dataDir));
    tables = await tablesOf(database.db);
    expect(tables.has("classes"), "the fixture is the previous release's schema").toBe(false);
    before = await contents(database.db, tables);
    await migrate(database.db);
    after = await contents(database.db, tables);
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent", RATE_LIMITS: "off" });
    // No job runs: the old release's predictions stay as they were (a new model would queue
    // their recomputation, which adds predictions this test counts).
    app = await buildApp({ config, database, logger: false, runJobs: false });
    await app.ready();
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await drop?.();
    await rm(dataDir, { recursive: true, force: true });
  });

  const login = async (name: string) => {
    const res = await app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email: email(name), password },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { token, user } = res.json() as { token: string; user: User };
    return { headers: { authorization: `Bearer ${token}` }, user };
  };
  const get = (url: string, who: { headers: Record<string, string> }) =>
    app.inject({ method: "GET", url, headers: who.headers });

  /** An admin of the previous release must turn MFA on first (issue 18). */
  async function adminWithMfa() {
    const admin = await login("Old Admin");
    const start = await app.inject({
      method: "POST",
      url: "/api/me/mfa/totp",
      headers: admin.headers,
    });
    expect(start.statusCode, start.body).toBe(200);
    const { secret } = start.json() as { secret: string };
    const confirm = await app.inject({
      method: "POST",
      url: "/api/me/mfa/totp/confirm",
      headers: admin.headers,
      payload: { code: totpCode(secret) },
    });
    expect(confirm.statusCode, confirm.body).toBe(200);
    return admin;
  }
  let admin: Awaited<ReturnType<typeof adminWithMfa>> | undefined;
  const theAdmin = async () => {
    admin ??= await adminWithMfa();
    return admin;
  };

  it("loses nothing: every row of every table, with every value it had", async () => {
    // What the previous release was given through its API (fixtures/previous-release-data.mjs).
    expect(before.users?.rows).toBe(8);
    expect(before.student_reports?.rows).toBe(5);
    expect(before.students?.rows).toBe(2);
    expect(before.predictions?.rows).toBe(4);
    expect(before.audit_log?.rows).toBe(22);
    expect(after).toEqual(before);
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from student_reports
      where student_id is null and class_id is null`.execute(database.db);
    expect(rows[0]?.n).toBe(5);
  });

  it("keeps teachers teachers and a waiting teacher sign-up waiting", async () => {
    for (const name of ["Tess Selfmade", "Theo Selfmade", "Paula Promoted"]) {
      expect((await login(name)).user.role, name).toBe("teacher");
    }
    const pat = await login("Pat Pending");
    expect(pat.user).toMatchObject({ role: "student", pendingRole: "teacher" });
    for (const name of ["Sam Student", "Stan Student"]) {
      expect((await login(name)).user.role, name).toBe("student");
    }
    // A teacher whose address was never verified keeps the role, but reads nobody's data until
    // it is verified (issue 17).
    const theo = await login("Theo Selfmade");
    const refused = await get("/api/reports", theo);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: { code: "email_not_verified" } });
  });

  it("lists the teachers who registered themselves for the admin's review, and the waiting sign-up", async () => {
    const page = await get("/api/admin/users?review=true", await theAdmin());
    expect(page.statusCode, page.body).toBe(200);
    const { items, pendingCount } = page.json() as { items: AdminUser[]; pendingCount: number };
    // Paula was made a teacher by an admin: decided on already.
    expect(items.map((u) => u.name).sort()).toEqual(["Tess Selfmade", "Theo Selfmade"]);
    expect(pendingCount).toBe(1);
    const pending = await get("/api/admin/users?pending=true", await theAdmin());
    const waiting = (pending.json() as { items: AdminUser[] }).items.map((u) => u.name);
    expect(waiting).toEqual(["Pat Pending"]);
    // The previous release's audit entries are in the log the admin reads.
    const log = await get("/api/admin/audit?action=admin.role_changed", await theAdmin());
    const entries = (log.json() as AuditPage).items;
    expect(entries).toHaveLength(1);
    expect(entries[0]?.details).toMatchObject({ email: email("Paula Promoted"), to: "teacher" });
  });

  it("keeps the old reports readable by their author and admins, and by no other teacher", async () => {
    const author = await login("Tess Selfmade");
    const list = await get("/api/reports", author);
    expect(list.statusCode, list.body).toBe(200);
    const items = (list.json() as { items: LinkedReport[] }).items;
    expect(items.map((r) => `${r.studentName}: ${r.marks}`).sort()).toEqual([
      "Pupil Without Account: 64",
      "Sam Student: 72",
      "Sara Student: 58",
    ]);
    const id = items[0]!.id;
    expect((await get(`/api/reports/${id}`, author)).statusCode).toBe(200);
    expect((await get(`/api/reports/${id}`, await theAdmin())).statusCode).toBe(200);
    const colleague = await login("Paula Promoted");
    expect((await get(`/api/reports/${id}`, colleague)).statusCode).toBe(404);
    const theirs = (await get("/api/reports", colleague)).json() as { items: LinkedReport[] };
    expect(theirs.items.map((r) => r.studentName)).toEqual(["Stan Student"]);
  });

  it("keeps each student's questionnaire and predictions theirs", async () => {
    const sam = await login("Sam Student");
    const predictions = await get("/api/predictions/mine", sam);
    expect(predictions.statusCode, predictions.body).toBe(200);
    expect((predictions.json() as { items: unknown[] }).items).toHaveLength(2);
    const answers = await get("/api/students/mine", sam);
    expect(answers.statusCode, answers.body).toBe(200);
    expect((answers.json() as { items: unknown[] }).items).toHaveLength(1);
  });
});
