import { sql } from "kysely";
import { expect, it } from "vitest";
import { openDatabase } from "./database.ts";

// The embedded PostgreSQL keeps 16 MB of shared buffers (database.ts): its WebAssembly memory is
// resident once started, and the operating system's file cache holds the pages behind it.
it("opens PGlite with 16 MB of shared buffers", async () => {
  const database = await openDatabase({});
  try {
    const { rows } = await sql<{ shared_buffers: string }>`show shared_buffers`.execute(
      database.db,
    );
    expect(rows[0]?.shared_buffers).toBe("16MB");
  } finally {
    await database.close();
  }
}, 60_000);
