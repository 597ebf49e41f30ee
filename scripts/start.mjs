// `npm start`: build the web app if it is missing or stale, then run the server in this process.
import { existsSync } from "node:fs";
import os from "node:os";
import { pathToFileURL } from "node:url";
import { ensureServerBuilt, serverBundle } from "./server-build.mjs";
import { ensureWebBuilt } from "./web-build.mjs";

// A .env file beside package.json (see .env.example) is read first; variables already set in
// the environment win over it.
const envFile = new URL("../.env", import.meta.url);
if (existsSync(envFile)) process.loadEnvFile(envFile);

// argon2 hashes on libuv's thread pool; size it for the machine before anything uses it, so
// sign-ins neither starve file I/O nor queue behind each other on a small server.
process.env.UV_THREADPOOL_SIZE ??= String(Math.max(4, Math.min(16, os.availableParallelism() * 2)));

ensureWebBuilt();
// The server as compiled JavaScript (scripts/server-build.mjs); from its TypeScript sources
// through tsx when it cannot be compiled. Either way main.ts builds the PGlite template if the
// install has none yet (see apps/server/src/db/pglite-template.ts).
if (await ensureServerBuilt()) {
  await import(pathToFileURL(serverBundle).href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../apps/server/src/main.ts");
}
