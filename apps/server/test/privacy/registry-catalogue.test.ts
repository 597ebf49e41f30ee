import { columnsOf, entryOf, personalData } from "@gradecast/contract/personal-data";
import { sql } from "kysely";
import { describe, expect } from "vitest";
import { apiTests } from "../support/fixtures.ts";
import { dialects, type TestApp } from "../support/helpers.ts";
import { call, deleteMine, fillEverything, runDailyJob, uniqueName, userRows } from "./support.ts";

// The person-data registry (contract personal-data.ts) against the database's own catalogue, on
// PGlite and PostgreSQL: a table with a person column (a foreign key to users(id), or a column
// named like an email, a name or a person's id) must have an entry; an entry must name exactly
// its table's columns; every reference to an account must be exported and erased. Then the
// proof: after the grace period and the purge, no row of any table holds the deleted people's
// ids, emails or names. And the notice at /privacy lists every field of the registry.

const tests = apiTests({ env: { RATE_LIMITS: "off" }, clock: true });

/** Columns named like a person's email, name or id (besides foreign keys to users). */
const personLike =
  /email|name|^(user|student|teacher|author|actor|sender|owner|guardian|person)_id$|_by$/;

async function catalogue(t: TestApp) {
  const columns = await sql<{ table: string; column: string }>`
    select c.table_name as "table", c.column_name as "column"
    from information_schema.columns c
    join information_schema.tables tb
      on tb.table_schema = c.table_schema and tb.table_name = c.table_name
    where c.table_schema = current_schema() and tb.table_type = 'BASE TABLE'
      and c.table_name not like 'kysely_%'
    order by c.table_name, c.ordinal_position`.execute(t.database.db);
  const references = await sql<{ table: string; column: string; onDelete: string }>`
    select cl.relname as "table", a.attname as "column", c.confdeltype as "onDelete"
    from pg_constraint c
    join pg_class cl on cl.oid = c.conrelid
    join pg_namespace n on n.oid = cl.relnamespace
    join pg_attribute a on a.attrelid = c.conrelid and a.attnum = any (c.conkey)
    where c.contype = 'f' and c.confrelid = 'users'::regclass
      and n.nspname = current_schema()`.execute(t.database.db);
  const byTable = new Map<string, string[]>();
  for (const { table, column } of columns.rows) {
    byTable.set(table, [...(byTable.get(table) ?? []), column]);
  }
  return { byTable, references: references.rows };
}

describe.each(dialects)("the person-data registry (%s)", (dialect) => {
  const test = tests[dialect];
  test.afterEach(({ clock }) => clock.reset());

  test("every table with a person column has an entry", async ({ t }) => {
    const { byTable, references } = await catalogue(t);
    const personTables = new Set(references.map((r) => r.table));
    for (const [table, columns] of byTable) {
      if (columns.some((c) => personLike.test(c))) personTables.add(table);
    }
    const missing = [...personTables].filter((table) => !entryOf(table)).sort();
    expect(missing, "tables holding person data with no entry in personal-data.ts").toEqual([]);
  });

  test("each entry names exactly its table's columns", async ({ t }) => {
    const { byTable } = await catalogue(t);
    for (const entry of personalData) {
      const actual = byTable.get(entry.table);
      expect(actual, `${entry.table}: no such table`).toBeDefined();
      expect(columnsOf(entry).sort(), `${entry.table}: columns`).toEqual(
        [...(actual ?? [])].sort(),
      );
    }
  });

  test("every reference to an account is exported and erased", async ({ t }) => {
    const { byTable, references } = await catalogue(t);
    for (const { table, column, onDelete } of references) {
      const entry = entryOf(table);
      const link = entry?.links.find((l) => l.column === column);
      expect(link?.kind, `${table}.${column} references users(id): a link of kind "id"`).toBe("id");
      // A reference the database would refuse to delete past (no action) must be rewritten.
      if (onDelete === "a" && link) {
        const rewritten = typeof link.erase === "object" && column in link.erase.anonymise;
        expect(link.erase === "delete" || rewritten, `${table}.${column}: erased`).toBe(true);
      }
    }
    for (const [table, columns] of byTable) {
      for (const column of columns.filter((c) => c.includes("email"))) {
        if (table === "users") continue;
        const link = entryOf(table)?.links.find((l) => l.column === column);
        expect(link?.kind, `${table}.${column}: a link of kind "email"`).toBe("email");
      }
    }
    for (const entry of personalData) {
      const exported = entry.links.some((l) => l.kind !== "name" && l.export !== "none");
      const derived = entry.links.every((l) => l.erase === "derived");
      expect(exported || derived, `${entry.table}: in the export`).toBe(true);
    }
  });

  test("the privacy notice lists every field of the registry, with how long it is kept", async ({
    t,
  }) => {
    const res = await call(t, "GET", "/api/privacy", undefined);
    expect(res.statusCode).toBe(200);
    const notice = res.json() as {
      version: string;
      sections: { table: string; kept: string; fields: { name: string }[] }[];
    };
    expect(notice.version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const entry of personalData) {
      const section = notice.sections.find((s) => s.table === entry.table);
      expect(section, entry.table).toBeDefined();
      expect(section?.kept).toMatch(/^Kept /);
      const listed = section?.fields.map((f) => f.name) ?? [];
      for (const field of [...Object.keys(entry.fields), ...(entry.secret ?? [])]) {
        expect(listed, `${entry.table}.${field}`).toContain(field);
      }
    }
  });

  test("after the grace period and the purge, no row anywhere holds the deleted people", async ({
    t,
    signedIn,
    clock,
  }) => {
    const student = await signedIn("student", { name: uniqueName("Pupil") });
    const teacher = await signedIn("teacher", { name: uniqueName("Teacher") });
    const bystander = await signedIn("student", { name: uniqueName("Bystander") });
    await fillEverything(t, student, teacher);
    // Sessions, sign-ins and audit entries of their own, through the API.
    expect((await call(t, "GET", "/api/me/export", student)).statusCode).toBe(200);
    expect((await deleteMine(t, student)).statusCode).toBe(202);
    expect((await deleteMine(t, teacher)).statusCode).toBe(202);
    clock.tick(15 * 86_400_000);
    await runDailyJob(t);

    const tables = await sql<{ name: string }>`
      select table_name as name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE'
      order by table_name`.execute(t.database.db);
    const needles = [student, teacher].flatMap((p) => [p.user.uid, p.email, p.user.name]);
    const found: string[] = [];
    for (const { name } of tables.rows) {
      const rows = await sql<{ row: string }>`
        select x::text as row from ${sql.table(name)} x
        where ${sql.join(
          needles.map((n) => sql`x::text ilike ${`%${n}%`}`),
          sql` or `,
        )}`.execute(t.database.db);
      for (const r of rows.rows) found.push(`${name}: ${r.row.slice(0, 300)}`);
    }
    expect(found).toEqual([]);
    // Somebody else's data stays.
    const still = await userRows(t, bystander);
    expect(still).toHaveLength(1);
  });
});
