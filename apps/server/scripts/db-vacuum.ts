import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import { loadConfig } from "../src/config.ts";
import { openDatabase } from "../src/db/database.ts";
import { lockPglite, reportFailure } from "./db-backup.ts";

// npm run db:vacuum
// VACUUM (ANALYZE) of every table of the database `npm start` would use. On PGlite, which has no
// autovacuum, the server vacuums only tables under 32 MB by itself (src/db/pglite-vacuum.ts):
// this is for the larger ones, with the server stopped (PGlite is one process's database). On
// PostgreSQL autovacuum does it; running this is harmless.
export async function vacuumDatabase(env: NodeJS.ProcessEnv): Promise<string> {
  const config = loadConfig(env);
  const release = config.databaseUrl
    ? () => {}
    : await lockPglite(config.dataDir, "npm run db:vacuum");
  try {
    const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
    try {
      await sql`vacuum (analyze)`.execute(database.db);
      return database.location;
    } finally {
      await database.close();
    }
  } finally {
    release();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  vacuumDatabase(process.env)
    .then((where) => process.stdout.write(`Vacuumed and analyzed ${where}.\n`))
    .catch((error) => reportFailure("db:vacuum", error));
}
