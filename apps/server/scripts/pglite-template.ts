// Part of the build: the empty PGlite cluster new databases start from (see db/pglite-template.ts).
import { ensureTemplate } from "../src/db/pglite-template.ts";

const file = await ensureTemplate();
process.stdout.write(`PGlite template ready: ${file}\n`);
