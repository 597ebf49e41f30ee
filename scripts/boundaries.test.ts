import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, test } from "vitest";

// The import-boundary step of .ci/run (`npm run boundaries`) run on a small tree made to break
// each rule, so that a rule that stopped matching (a moved folder, a changed pattern) fails here
// instead of letting every later cycle through.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const config = path.join(root, ".dependency-cruiser.cjs");
const depcruise = path.join(root, "node_modules", ".bin", "depcruise");
const trees: string[] = [];

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "gradecast-boundaries-"));
  trees.push(dir);
  writeFileSync(path.join(dir, "tsconfig.base.json"), '{ "compilerOptions": {} }');
  for (const top of ["apps", "packages"]) mkdirSync(path.join(dir, top));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

function check(dir: string) {
  const run = spawnSync(
    depcruise,
    ["apps", "packages", "--config", config, "--output-type", "err"],
    {
      cwd: dir,
      encoding: "utf8",
    },
  );
  return { status: run.status, out: `${run.stdout}${run.stderr}` };
}

afterAll(() => {
  for (const dir of trees) rmSync(dir, { recursive: true, force: true });
});

// Each case runs dependency-cruiser in a child process: 13 to 38 s apiece on a loaded 2-core
// machine. The limit is for a hung run, not a measure of speed.
describe("import boundaries", { timeout: 120_000 }, () => {
  test("a tree that keeps every rule passes", () => {
    const dir = tree({
      "packages/contract/src/a.ts": "export const a = 1;\n",
      "apps/server/src/auth/service.ts":
        'import { a } from "../../../../packages/contract/src/a.ts";\nexport const s = a;\n',
      "apps/web/src/pages/p.tsx": 'import { f } from "../features/x/f.ts";\nexport const p = f;\n',
      "apps/web/src/features/x/f.ts":
        'import { c } from "../../components/c.ts";\nexport const f = c;\n',
      "apps/web/src/components/c.ts": "export const c = 1;\n",
    });
    const { status, out } = check(dir);
    expect(out).toContain("no dependency violations");
    expect(status).toBe(0);
  });

  test("a cycle through type-only imports fails the step", () => {
    const dir = tree({
      "apps/server/src/auth/a.ts": 'import type { B } from "./b.ts";\nexport type A = { b?: B };\n',
      "apps/server/src/auth/b.ts": 'import type { A } from "./a.ts";\nexport type B = { a?: A };\n',
    });
    const { status, out } = check(dir);
    expect(out).toContain("no-cycle");
    expect(status).not.toBe(0);
  });

  test.each([
    [
      "contract-imports-no-app",
      "packages/contract/src/x.ts",
      'import { s } from "../../../apps/server/src/auth/s.ts";\nexport const x = s;\n',
    ],
    [
      "web-no-upward",
      "apps/web/src/components/x.ts",
      'import { f } from "../features/r/f.ts";\nexport const x = f;\n',
    ],
    [
      "web-features-no-pages",
      "apps/web/src/features/r/x.ts",
      'import { p } from "../../pages/p.ts";\nexport const x = p;\n',
    ],
    [
      "server-shared-no-feature",
      "apps/server/src/db/x.ts",
      'import { s } from "../auth/s.ts";\nexport const x = s;\n',
    ],
    [
      "no-feature-internals",
      "apps/server/src/classes/x.ts",
      'import { q } from "../auth/queries.ts";\nexport const x = q;\n',
    ],
  ])("%s fails the step", (rule, file, text) => {
    const dir = tree({
      [file]: text,
      "apps/server/src/auth/s.ts": "export const s = 1;\n",
      "apps/server/src/auth/queries.ts": "export const q = 1;\n",
      "apps/web/src/features/r/f.ts": "export const f = 1;\n",
      "apps/web/src/pages/p.ts": "export const p = 1;\n",
    });
    const { status, out } = check(dir);
    expect(out).toContain(rule);
    expect(status).not.toBe(0);
  });
});
