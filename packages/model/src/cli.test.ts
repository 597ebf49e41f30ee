import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it, vi } from "vitest";
import { loadModel } from "./model.ts";
import { syntheticRecords, toUciCsv } from "./testutil.ts";

// The command line as a user runs it (`npm run model:train|predict|eval`), on a small file in
// the UCI format made here: its options, what it prints and what it writes.

// trains real models in a child process: seconds on a quiet machine, more on a shared one
vi.setConfig({ testTimeout: 120_000 });

const root = fileURLToPath(new URL("../../..", import.meta.url));
const cli = fileURLToPath(new URL("./cli.ts", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "gradecast-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// the subject comes from the file's name, as with the UCI files
const data = join(dir, "student-mat.csv");
writeFileSync(data, toUciCsv(syntheticRecords(160, 41)));

function run(...args: string[]) {
  const r = spawnSync(process.execPath, ["--import", "tsx", cli, ...args], {
    cwd: root,
    encoding: "utf8",
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const modelB = join(dir, "model-b.json");
let trainedB: ReturnType<typeof run> | undefined;
/** Setup B trained once, by whichever test needs it first (the tests run in any order). */
const trainB = () => {
  trainedB ??= run("train", "--setup", "B", "--data", data, "--out", modelB);
  return trainedB;
};

describe("model:train", () => {
  it("trains the setup asked for, and refuses one that does not exist", () => {
    const out = modelB;
    const r = trainB();
    expect(r.code).toBe(0);
    // only results go to stdout (progress to stderr)
    expect(r.stdout).toBe("");
    const model = loadModel(JSON.parse(readFileSync(out, "utf8")));
    expect(model.setups).toEqual(["B"]);
    expect(model.artifact.data).toEqual([
      { file: "student-mat.csv", sha256: expect.stringMatching(/^[0-9a-f]{64}$/), rows: 160 },
    ]);
    const bad = run("train", "--setup", "D", "--data", data, "--out", join(dir, "x.json"));
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--setup must be A, B or C/);
  });
});

describe("model:predict", () => {
  it("prints one headline per line, and with --json the headline and its two parts", () => {
    expect(trainB().code).toBe(0);
    const model = modelB;
    const plain = run("predict", "--model", model, "--data", data);
    const json = run("predict", "--model", model, "--data", data, "--json");
    expect(plain.code).toBe(0);
    expect(json.code).toBe(0);
    const headlines = plain.stdout.trimEnd().split("\n").map(Number);
    const rows = json.stdout
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    // one line per row of the file, though it also has G3, Dalc and Walc (ignored)
    expect(headlines).toHaveLength(160);
    expect(rows).toHaveLength(160);
    rows.forEach((p, i) => {
      expect(Object.keys(p).sort()).toEqual(["noFinalScoreRisk", "prediction", "scoreIfSits"]);
      expect(p.prediction).toBe(headlines[i]);
      expect(p.scoreIfSits).toBeGreaterThanOrEqual(0);
      expect(p.scoreIfSits).toBeLessThanOrEqual(20);
      expect(p.noFinalScoreRisk).toBeGreaterThan(0);
      expect(p.noFinalScoreRisk).toBeLessThan(1);
      // the headline is the expected score: a final not sat counts as 0
      expect(p.prediction).toBeCloseTo((1 - p.noFinalScoreRisk) * p.scoreIfSits, 9);
    });
  });
});

describe("model:eval", () => {
  it("prints with --json the coverage of every group and the risk's Brier score", () => {
    const json = run(
      "eval",
      ...["--data", data, "--setup", "A", "--folds", "3", "--repeats", "1", "--json"],
    );
    expect(json.code).toBe(0);
    const e = JSON.parse(json.stdout);
    expect(e.setup).toBe("A");
    expect(e.noFinalScoreRisk.brier).toBeGreaterThan(0);
    expect(e.noFinalScoreRisk.brier).toBeLessThan(0.25);
    expect(e.noFinalScoreRisk.baselineBrier).toBeGreaterThan(0);
    const groups = new Map(
      (e.groups as { group: string; rows: number; coverage: number }[]).map((g) => [g.group, g]),
    );
    for (const name of ["all", "sat the final", "ended with 0", "sex F", "school GP"]) {
      const g = groups.get(name);
      expect(g, name).toBeDefined();
      expect(g!.coverage).toBeGreaterThanOrEqual(0);
      expect(g!.coverage).toBeLessThanOrEqual(1);
    }
    // every row is held out once: the two outcome groups make up all rows
    expect(groups.get("all")!.rows).toBe(160);
    expect(groups.get("sat the final")!.rows + groups.get("ended with 0")!.rows).toBe(160);
  });
});

describe("every model command", () => {
  it("refuses an option it does not know, in one line naming it, before doing anything", () => {
    const out = join(dir, "never.json");
    for (const [cmd, ...args] of [
      ["train", "--data", data, "--out", out, "--bogus", "1"],
      ["train", "--data", data, "--out", out, "--outcome", data],
      ["predict", "--model", modelB, "--data", data, "--bogus", "1"],
      ["eval", "--data", data, "--bogus", "1"],
      ["gate", "--candidate", modelB, "--current", modelB, "--outcomes", data, "--bogus", "1"],
    ]) {
      const r = run(cmd!, ...args);
      const bad = args.at(-2)!;
      expect(r.code, `${cmd} ${bad}`).toBe(1);
      expect(r.stderr).toBe(`error: unknown option ${bad}\n`);
      expect(r.stdout).toBe("");
    }
    expect(() => readFileSync(out)).toThrow();
  });
});

describe("model:gate", () => {
  it("prints the comparison and exits non-zero when the gate refuses", () => {
    expect(trainB().code).toBe(0);
    // the same model on both sides: not worse; refused only by the number of outcomes
    const refused = run(
      "gate",
      ...["--candidate", modelB, "--current", modelB, "--outcomes", data, "--min-outcomes", "1000"],
    );
    expect(refused.code).toBe(2);
    expect(refused.stdout).toMatch(/^setup {2}measure/);
    expect(refused.stdout).toMatch(/\nB +scoreIfSits RMSE +160 /);
    expect(refused.stdout).toContain("mat: 160 outcomes, fewer than the 1000 a candidate needs.");
    const json = run(
      "gate",
      ...["--candidate", modelB, "--current", modelB, "--outcomes", data, "--json"],
    );
    const report = JSON.parse(json.stdout);
    expect(report.comparison.map((c: { verdict: string }) => c.verdict)).toEqual([
      "not worse",
      "not worse",
    ]);
    expect(report.outcomes).toEqual({ mat: 160, por: 0 });
    expect(json.code).toBe(report.promotable ? 0 : 2);
  });
});
