// `npm start`: build the web app if it is missing or stale, then run the server in this process.
import os from "node:os";
import { ensureWebBuilt } from "./web-build.mjs";

// argon2 hashes on libuv's thread pool; size it for the machine before anything uses it, so
// sign-ins neither starve file I/O nor queue behind each other on a small server.
process.env.UV_THREADPOOL_SIZE ??= String(Math.max(4, Math.min(16, os.availableParallelism() * 2)));

ensureWebBuilt();
const { register } = await import("tsx/esm/api");
register();
// The empty cluster a new DATA_DIR starts from; built once per install (see pglite-template.ts).
const { ensureTemplate } = await import("../apps/server/src/db/pglite-template.ts");
await ensureTemplate();
await import("../apps/server/src/main.ts");
