import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, test } from "vitest";

// The message check of .ci/run (`npm run -s messages`) run on small trees made to break each
// rule, so that a check that stopped finding a problem fails here.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const script = path.join(root, "scripts", "check-messages.mjs");
const trees: string[] = [];

type Catalogue = Record<string, string>;

/** The check run on a small tree of its own: these catalogues and one page using messages. */
function checkTree(en: Catalogue, pt: Catalogue, source: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "gradecast-messages-"));
  trees.push(dir);
  const files: Record<string, string> = {
    "apps/web/src/locales/en/login.json": JSON.stringify(en),
    "apps/web/src/locales/pt-PT/login.json": JSON.stringify(pt),
    "apps/web/src/pages/login.tsx": source,
  };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  const run = spawnSync(process.execPath, [script, dir], { encoding: "utf8" });
  return { status: run.status, out: `${run.stdout}${run.stderr}` };
}

const uses = 'intl.formatMessage({ id: "login.title" }); t("login.count", { n });';

afterAll(() => {
  for (const dir of trees) rmSync(dir, { recursive: true, force: true });
});

describe("message catalogues", () => {
  test("complete, used and valid catalogues pass", () => {
    const { status, out } = checkTree(
      { "login.title": "Login", "login.count": "{n, plural, one {# try} other {# tries}}" },
      {
        "login.title": "Iniciar sessão",
        "login.count": "{n, plural, one {# tentativa} other {# tentativas}}",
      },
      uses,
    );
    expect(out).toContain("0 problem(s)");
    expect(status).toBe(0);
  });

  test("a key missing in Portuguese fails the step", () => {
    const { status, out } = checkTree(
      { "login.title": "Login", "login.count": "{n} tries" },
      { "login.title": "Iniciar sessão" },
      uses,
    );
    expect(out).toContain('apps/web/src/locales/pt-PT: "login.count" is missing');
    expect(status).toBe(1);
  });

  test("a key no source uses fails the step", () => {
    const { status, out } = checkTree(
      { "login.title": "Login" },
      { "login.title": "Iniciar sessão" },
      "export {};",
    );
    expect(out).toContain('"login.title" is not used');
    expect(status).toBe(1);
  });

  test("a message that is not ICU, or a translation with other arguments, fails the step", () => {
    const { status, out } = checkTree(
      { "login.title": "Login {name", "login.count": "{n} tries" },
      { "login.title": "Iniciar sessão", "login.count": "{count} tentativas" },
      uses,
    );
    expect(out).toContain('"login.title" is not a valid ICU message');
    expect(out).toContain('"login.count" uses {count}, English uses {n}');
    expect(status).toBe(1);
  });
});
