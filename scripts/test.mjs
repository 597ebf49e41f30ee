// `npm test`: builds the web app when needed, runs the unit and API tests, then the browser
// tests, and closes with the plain totals line `N passed, N failed`.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ensureWebBuilt } from "./web-build.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const results = path.join(root, "test-results");
mkdirSync(results, { recursive: true });
ensureWebBuilt();
spawnSync("npx", ["tsx", "apps/server/scripts/pglite-template.ts"], {
  cwd: root,
  stdio: "inherit",
});

const runs = [
  { name: "unit, component and API", projects: ["unit", "web", "api"] },
  { name: "browser", projects: ["e2e"] },
];
let passed = 0;
let failed = 0;
let skipped = 0;
let exitCode = 0;
// Names of what failed, printed just above the totals so the tail of a CI log says which.
const failures = [];
for (const run of runs) {
  const out = path.join(results, `vitest-${run.projects.join("-")}.json`);
  rmSync(out, { force: true });
  process.stdout.write(`\n== ${run.name} tests ==\n`);
  const args = ["vitest", "run", ...run.projects.flatMap((p) => ["--project", p])];
  args.push("--reporter=default", "--reporter=json", `--outputFile.json=${out}`);
  const result = spawnSync("npx", args, { cwd: root, stdio: "inherit" });
  if (result.status !== 0) exitCode = 1;
  if (!existsSync(out)) {
    process.stdout.write(`The ${run.name} run produced no report.\n`);
    failed += 1;
    continue;
  }
  const report = JSON.parse(readFileSync(out, "utf8"));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  // A file that failed to load has no tests to count but is a failure.
  for (const file of report.testResults ?? []) {
    const where = path.relative(root, file.name ?? "");
    if (file.status === "failed" && (file.assertionResults ?? []).length === 0) {
      failed += 1;
      failures.push(`${where}: ${String(file.message ?? "failed to load").split("\n")[0]}`);
    }
    for (const test of file.assertionResults ?? []) {
      if (test.status !== "failed") continue;
      const why = String(test.failureMessages?.[0] ?? "")
        .split("\n")[0]
        .slice(0, 300);
      failures.push(`${where} > ${test.fullName}\n    ${why}`);
    }
  }
}
if (passed === 0) exitCode = 1;
if (failures.length > 0)
  process.stdout.write(`\nFailed:\n${failures.map((f) => `  ${f}`).join("\n")}\n`);
process.stdout.write(
  `\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}\n`,
);
process.exit(failed > 0 ? 1 : exitCode);
