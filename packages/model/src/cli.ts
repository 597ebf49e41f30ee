/**
 * gradecast model CLI.
 *   train   --data A.csv [--data B.csv] --out model.json [--seed N] [--eval-repeats N] [--eval-folds N]
 *   predict --model model.json --data C.csv
 *   eval    --data A.csv [--extra B.csv] --setup A|B|C [--folds 10] [--repeats 20] [--seed N]
 *           [--coverage-repeats N] [--json]
 * Only results go to stdout; progress goes to stderr. Paths are relative to the current directory.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import { evaluate, type Setup } from "./cv.ts";
import { concatDatasets, type Dataset, parseCsv, toDataset } from "./data.ts";
import { loadModel, type SubjectEvaluation } from "./model.ts";
import { MODEL_PARAMS } from "./params.ts";
import { buildArtifact, sha256, type TrainingFile } from "./train.ts";

type Args = Map<string, string[]>;

function parseArgs(argv: readonly string[]): Args {
  const args: Args = new Map();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith("--")) throw new Error(`unexpected argument ${a}`);
    const key = a.slice(2);
    const next = argv[i + 1];
    if (key === "json") {
      args.set(key, ["true"]);
      continue;
    }
    if (next === undefined || next.startsWith("--")) throw new Error(`--${key} needs a value`);
    args.set(key, [...(args.get(key) ?? []), next]);
    i++;
  }
  return args;
}

const one = (args: Args, key: string, def?: string): string => {
  const v = args.get(key)?.at(-1) ?? def;
  if (v === undefined) throw new Error(`--${key} is required`);
  return v;
};
const int = (args: Args, key: string, def: number): number => {
  const v = Number(one(args, key, String(def)));
  if (!Number.isInteger(v) || v < 0) throw new Error(`--${key} must be a non-negative integer`);
  return v;
};
const log = (msg: string) => process.stderr.write(`${msg}\n`);

function readData(path: string, requireTarget = true): { file: TrainingFile; text: Buffer } {
  const text = readFileSync(resolve(process.cwd(), path));
  const data = toDataset(parseCsv(text.toString("utf8")), requireTarget);
  return { file: { file: basename(path), sha256: sha256(text), data }, text };
}

function subjectName(file: string): string {
  const m = /student-([a-z]+)\.csv$/i.exec(file);
  return m ? m[1]! : file;
}

function train(args: Args): void {
  const paths = args.get("data") ?? [];
  if (paths.length === 0) throw new Error("--data is required");
  const out = one(args, "out");
  const seed = int(args, "seed", MODEL_PARAMS.seed);
  const evalRepeats = int(args, "eval-repeats", 20);
  const evalFolds = int(args, "eval-folds", 10);
  const coverageRepeats = int(args, "coverage-repeats", 2);
  const files = paths.map((p) => readData(p).file);
  const params = { ...MODEL_PARAMS, seed };
  const evaluation: SubjectEvaluation[] = [];
  if (evalRepeats > 0) {
    files.forEach((f, k) => {
      const others = files.filter((_, j) => j !== k).map((o) => o.data);
      const extras: (Dataset | undefined)[] =
        others.length > 0 ? [concatDatasets(others), undefined] : [undefined];
      for (const extra of extras) {
        const how = extra ? "training folds include the other subject" : "this subject only";
        log(`evaluating ${f.file}: setup A, ${evalRepeats}x${evalFolds}-fold, ${how}`);
        const r = evaluate({
          data: f.data,
          extra,
          setup: "A",
          folds: evalFolds,
          repeats: evalRepeats,
          seed,
          params,
          coverageRepeats,
          onProgress: log,
        });
        evaluation.push({
          subject: subjectName(f.file),
          setup: "A",
          folds: evalFolds,
          repeats: evalRepeats,
          rmse: { mean: round4(r.rmse.mean), std: round4(r.rmse.std) },
          mae: round4(r.mae),
          passAccuracy: round4(r.passAccuracy),
          intervalCoverage: r.intervalCoverage === null ? null : round4(r.intervalCoverage),
          trainedWithOtherSubject: extra !== undefined,
        });
      }
    });
  }
  const artifact = buildArtifact(files, { params, evaluation, onProgress: log });
  writeFileSync(resolve(process.cwd(), out), `${JSON.stringify(artifact)}\n`);
  log(`wrote ${out} (${artifact.modelVersion}, ${artifact.trees.length} trees)`);
}

const round4 = (v: number) => Math.round(v * 1e4) / 1e4;

function predict(args: Args): void {
  const model = loadModel(
    JSON.parse(readFileSync(resolve(process.cwd(), one(args, "model")), "utf8")),
  );
  const text = readFileSync(resolve(process.cwd(), one(args, "data")), "utf8");
  const lines = parseCsv(text).map((rec) => String(model.predict(rec).prediction));
  process.stdout.write(lines.length > 0 ? `${lines.join("\n")}\n` : "");
}

function evalCmd(args: Args): void {
  const setup = one(args, "setup", "A").toUpperCase();
  if (setup !== "A" && setup !== "B" && setup !== "C") throw new Error("--setup must be A, B or C");
  const data = readData(one(args, "data")).file.data;
  const extraPaths = args.get("extra") ?? [];
  const extra =
    extraPaths.length > 0
      ? concatDatasets(extraPaths.map((p) => readData(p).file.data))
      : undefined;
  const r = evaluate({
    data,
    extra,
    setup: setup as Setup,
    folds: int(args, "folds", 10),
    repeats: int(args, "repeats", 20),
    seed: int(args, "seed", MODEL_PARAMS.seed),
    params: { ...MODEL_PARAMS },
    coverageRepeats: int(args, "coverage-repeats", 2),
    onProgress: log,
  });
  const result = {
    rmse: r.rmse,
    mae: r.mae,
    passAccuracy: r.passAccuracy,
    intervalCoverage: r.intervalCoverage,
  };
  if (args.has("json")) {
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } else {
    process.stdout.write(
      `rmse ${r.rmse.mean.toFixed(3)} ± ${r.rmse.std.toFixed(3)}  mae ${r.mae.toFixed(3)}  ` +
        `pass accuracy ${(100 * r.passAccuracy).toFixed(1)}%  interval coverage ${
          r.intervalCoverage === null ? "n/a" : `${(100 * r.intervalCoverage).toFixed(1)}%`
        }\n`,
    );
  }
}

function main(argv: readonly string[]): void {
  const [cmd, ...rest] = argv;
  const args = parseArgs(rest);
  if (cmd === "train") train(args);
  else if (cmd === "predict") predict(args);
  else if (cmd === "eval") evalCmd(args);
  else throw new Error("usage: cli.ts train|predict|eval [options]");
}

try {
  main(process.argv.slice(2));
} catch (e) {
  log(`error: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
}
