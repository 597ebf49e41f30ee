// Part of the build: the migrated PGlite cluster new databases start from (see
// db/pglite-template.ts). npm start and the tests also build it when it is missing.
import { ensureTemplate } from "../src/db/pglite-template.ts";

const file = await ensureTemplate();
process.stdout.write(`PGlite template ready: ${file}\n`);
