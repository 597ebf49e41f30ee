// `npm run bench`: every bench/<name>/index.ts in turn; each prints its own figures.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const names = readdirSync(here, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(path.join(here, d.name, "index.ts")))
  .map((d) => d.name)
  .filter((n) => only.length === 0 || only.includes(n))
  .sort();
let failed = 0;
const targets = [];
for (const name of names) {
  console.log(`\n== bench/${name} ==`);
  // The soak runs a minute when started alone; within the full run a shorter one will do.
  const env =
    name === "soak"
      ? { ...process.env, SOAK_SECONDS: process.env.SOAK_SECONDS ?? "20" }
      : process.env;
  const result = spawnSync("npx", ["tsx", path.join(here, name, "index.ts")], {
    stdio: ["inherit", "pipe", "inherit"],
    env,
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  process.stdout.write(result.stdout ?? "");
  // Each bench prints its targets as lines starting HOLDS or MISSED (figure, baseline, ratio).
  for (const line of (result.stdout ?? "").split("\n")) {
    if (/^(HOLDS|MISSED) /.test(line)) targets.push(`${name}: ${line}`);
  }
  if (result.status !== 0) failed += 1;
}
console.log("\n== targets ==");
for (const t of targets) console.log(t);
process.exit(failed > 0 ? 1 : 0);
