import { fileURLToPath } from "node:url";
import { adminCreateCommand } from "@gradecast/contract/first-admin";
import { buildApp } from "./app.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { lockIfEmbedded } from "./db/data-dir-lock.ts";
import { dataDirWarning, usePrivateUmask } from "./db/data-dir-mode.ts";
import { openMigrated } from "./db/database.ts";
import { removeStalePartials } from "./db/partial-files.ts";
import { cacheDir } from "./db/pglite-template.ts";
import { startVacuuming } from "./db/pglite-vacuum.ts";
import { adminExists } from "./http/setup.ts";

// The executable: read the configuration, open and migrate the database, listen, and shut down
// gracefully. Everything else is built by buildApp.
async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`Gradecast cannot start. Fix these environment variables:\n`);
      for (const problem of error.problems) process.stderr.write(`  ${problem}\n`);
      process.exit(1);
    }
    throw error;
  }

  // DATA_DIR and all in it are the server's user's alone (db/data-dir-mode.ts).
  usePrivateUmask();
  const wideDataDir = dataDirWarning(config.dataDir);
  if (wideDataDir) process.stderr.write(wideDataDir);

  // Embedded PGlite serves one process: hold DATA_DIR/server.pid so that a second server or
  // `npm run admin:create` refuses to open the same files.
  const releaseDataDir = await lockIfEmbedded(config, (pid) => {
    process.stderr.write(
      `Gradecast cannot start: process ${pid} (another Gradecast server?) is using the embedded database in ${config.dataDir}. Stop it first, or use another DATA_DIR.\n`,
    );
    process.exit(1);
  });
  // What a killed build or template copy left half-written (db/partial-files.ts); DATA_DIR's
  // only once it is this process's.
  const serverDist = fileURLToPath(new URL("../dist", import.meta.url));
  for (const dir of [cacheDir, serverDist, ...(config.databaseUrl ? [] : [config.dataDir])]) {
    removeStalePartials(dir);
  }
  const database = await openMigrated(config, config.databasePoolSize);
  const app = await buildApp({ config, database });
  // PGlite has no autovacuum (db/pglite-vacuum.ts); PostgreSQL runs its own.
  const stopVacuuming =
    database.kind === "pglite"
      ? startVacuuming(database.db, (error) => app.log.warn({ err: error }, "vacuum failed"))
      : () => {};

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, "shutting down: finishing requests in flight");
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      stopVacuuming();
      await app.close();
      await database.close();
      releaseDataDir();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, "shutdown failed");
      process.exit(1);
    }
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    // A port in use or a HOST this machine does not have: say which variable to change.
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    process.stderr.write(
      `Gradecast cannot start: cannot listen on HOST=${config.host} PORT=${config.port} (${code}). Free the port or change HOST or PORT.\n`,
    );
    stopVacuuming();
    await app.close();
    await database.close();
    releaseDataDir();
    process.exit(1);
  }
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  const url = config.publicUrl ?? `http://localhost:${port}`;
  const mail = config.smtpUrl
    ? `SMTP (${new URL(config.smtpUrl).host})`
    : `written to ${config.dataDir}/outbox/ (no SMTP_URL set)`;
  // A fresh install has nobody to approve teachers or manage users: say how to make the first
  // admin (the README's command; on the embedded database the server must be stopped first).
  const noAdmin = (await adminExists(database.db))
    ? []
    : [
        "",
        "  No admin yet. Create the first one with:",
        `    ${adminCreateCommand}`,
        database.kind === "pglite"
          ? "  (stop this server first: the embedded database takes one process at a time)"
          : "  (it may run while this server runs)",
      ];
  process.stdout.write(
    [
      "",
      `  Gradecast is running at ${url}`,
      `  Data:  ${database.kind === "pglite" ? `embedded PostgreSQL (PGlite) in ${database.location}` : `PostgreSQL at ${database.location}`}`,
      `  Mail:  ${mail}`,
      ...noAdmin,
      "",
    ].join("\n"),
  );
}

main().catch((error) => {
  process.stderr.write(`Gradecast failed to start: ${(error as Error).message}\n`);
  process.exit(1);
});
