import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, migrate, openDatabase } from "./database.ts";
import { vacuumWhereNeeded } from "./pglite-vacuum.ts";

// PGlite has no autovacuum; the server's own rule must find and clear what updates leave behind.
describe("vacuuming PGlite where autovacuum would", () => {
  let database: Database;
  const probe = async (table: string) => {
    // Statistics are sent at most once a second; this sends the pending ones now.
    await sql`select pg_stat_force_next_flush()`.execute(database.db);
    await sql`select 1`.execute(database.db);
    const { rows } = await sql<{ dead: number; vacuumed: boolean }>`
      select n_dead_tup::int as dead, last_vacuum is not null as vacuumed
      from pg_stat_user_tables where relname = ${table}`.execute(database.db);
    return rows[0]!;
  };
  /** A table of its own for each test (any order): `rows` rows, then all but `live` deleted. */
  const tableWithDeadRows = async (table: string, rows: number, live: number) => {
    const name = sql.table(table);
    await sql`create table ${name} (id int primary key, note text)`.execute(database.db);
    await sql`insert into ${name} select i, repeat('x', 100) from generate_series(1, ${rows}::int) i`.execute(
      database.db,
    );
    await sql`analyze ${name}`.execute(database.db);
    await sql`delete from ${name} where id > ${live}::int`.execute(database.db);
  };

  beforeAll(async () => {
    database = await openDatabase({});
    await migrate(database.db);
    // Opening PGlite takes seconds on a busy 2-core machine.
  }, 60_000);
  afterAll(() => database.close());

  it("vacuums a table whose dead rows pass 50 + 20 % of the live ones, and leaves it clean", async () => {
    // 1,000 rows of which 900 are deleted: 900 dead rows beside 100 live ones.
    await tableWithDeadRows("vacuum_probe", 1000, 100);
    expect(await probe("vacuum_probe")).toEqual({ dead: 900, vacuumed: false });
    const done = await vacuumWhereNeeded(database.db);
    expect(done).toContainEqual({ table: "vacuum_probe", action: "vacuum" });
    expect(await probe("vacuum_probe")).toEqual({ dead: 0, vacuumed: true });
    // Nothing left to do on that table: a second pass leaves it alone.
    expect(await vacuumWhereNeeded(database.db)).not.toContainEqual(
      expect.objectContaining({ table: "vacuum_probe" }),
    );
  });

  it("only analyzes a table over the size limit (its vacuum would hold every call)", async () => {
    await tableWithDeadRows("large_probe", 100, 0);
    expect((await probe("large_probe")).dead).toBe(100);
    expect(await vacuumWhereNeeded(database.db, { maxBytes: 0 })).toContainEqual({
      table: "large_probe",
      action: "analyze",
    });
    expect((await probe("large_probe")).dead).toBe(100);
  });
});
