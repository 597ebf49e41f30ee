import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { vacuumDatabase } from "../../scripts/db-vacuum.ts";
import { migrate, openDatabase } from "../../src/db/database.ts";

// npm run db:vacuum: the large tables the running server only analyzes are vacuumed with the
// server stopped (the DATA_DIR lock it takes is db:backup's, tested there).
describe("npm run db:vacuum on PGlite", () => {
  it("vacuums every table: one emptied by deletes gives its pages back", async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "gradecast-vacuum-"));
    try {
      // A table whose rows were all deleted: only a vacuum gives its pages back.
      const setup = await openDatabase({ dataDir });
      await migrate(setup.db);
      await sql`create table emptied (id int primary key, note text)`.execute(setup.db);
      await sql`insert into emptied select i, repeat('x', 200) from generate_series(1, 2000) i`.execute(
        setup.db,
      );
      await sql`delete from emptied`.execute(setup.db);
      await setup.close();

      await expect(vacuumDatabase({ DATA_DIR: dataDir })).resolves.toContain(dataDir);
      const after = await openDatabase({ dataDir });
      try {
        const { rows } = await sql<{ bytes: number }>`
          select pg_relation_size('emptied')::int as bytes`.execute(after.db);
        expect(rows[0]?.bytes).toBe(0);
      } finally {
        await after.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
