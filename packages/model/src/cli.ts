/**
 * gradecast model CLI.
 *   train   --data A.csv [--data B.csv] --out model.json [--setup A|B|C|all] [--seed N]
 *           [--eval-repeats N] [--eval-folds N] [--evaluation eval.json ...]
 *           [--outcomes school.csv ...] [--current model.json] [--cv-folds N] [--cv-repeats N]
 *           [--report gate.json]
 *           with --outcomes: a candidate learning from a school's outcomes (school-train.ts),
 *           the school's rows weighted by cross-validation; --current is the model in use
 *           (default the shipped one), which the trainer's held-out rows compare against
 *   gate    --candidate A.json --current B.json --outcomes held-out.csv [--min-outcomes N]
 *           [--json]  prints the comparison; exits 2 when the gate refuses
 *   predict --model model.json --data C.csv [--subject mat|por] [--json]
 *   eval    --data A.csv [--extra B.csv] [--setup A|B|C] [--folds 10] [--repeats 2] [--seed N]
 *           [--without sex] [--unconstrained] [--json] [--held-out file.json]
 * Only results go to stdout; progress goes to stderr. Paths are relative to the current directory.
 * Every command refuses an option it does not know, in one line naming it.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import { type EvalResult, evaluate } from "./cv.ts";
import { concatDatasets, parseCsv, SUBJECTS, type Subject, toDataset } from "./data.ts";
import { type GateReport, gate, pairedOn, structuralChecks } from "./gate.ts";
import { SETUPS, type Setup } from "./hurdle.ts";
import { type GradeModel, loadDefaultModel, loadModel, validateArtifact } from "./model.ts";
import { type OutcomeRow, outcomesPerSubject, readOutcomes, subjectOfFile } from "./outcomes.ts";
import { DEFAULT_SEED, RISK_PARAMS, SCORE_CANDIDATES } from "./params.ts";
import { gateRowsOf, trainSchoolCandidate } from "./school-train.ts";
import { buildArtifact, sha256, type TrainingFile } from "./train.ts";

type Args = Map<string, string[]>;

/** The options each command knows; any other is refused before anything runs. */
const KNOWN: Record<string, readonly string[]> = {
  train: [
    "data",
    "out",
    "setup",
    "seed",
    "eval-repeats",
    "eval-folds",
    "evaluation",
    "outcomes",
    "current",
    "cv-folds",
    "cv-repeats",
    "report",
  ],
  predict: ["model", "data", "subject", "json"],
  eval: [
    "data",
    "extra",
    "setup",
    "folds",
    "repeats",
    "seed",
    "without",
    "unconstrained",
    "json",
    "held-out",
  ],
  gate: ["candidate", "current", "outcomes", "min-outcomes", "json", "seed"],
};

function parseArgs(argv: readonly string[], known: readonly string[] = []): Args {
  const args: Args = new Map();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith("--")) throw new Error(`unexpected argument ${a}`);
    const key = a.slice(2);
    if (!known.includes(key)) throw new Error(`unknown option --${key}`);
    const next = argv[i + 1];
    if (key === "json" || key === "unconstrained") {
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

function setupArg(args: Args, allowAll = false): Setup | "all" {
  const setup = one(args, "setup", "A").toUpperCase();
  if (allowAll && setup === "ALL") return "all";
  if (!SETUPS.includes(setup as Setup)) throw new Error("--setup must be A, B or C");
  return setup as Setup;
}

/** The subject of a UCI file, from its name (student-mat.csv, student-por.csv). */
function subjectOf(file: string): Subject | undefined {
  const m = /student-([a-z]+)\.csv$/i.exec(file);
  const s = m?.[1]?.toLowerCase();
  return SUBJECTS.includes(s as Subject) ? (s as Subject) : undefined;
}

function readData(path: string): TrainingFile {
  const text = readFileSync(resolve(process.cwd(), path));
  const data = toDataset(parseCsv(text.toString("utf8")), true, subjectOf(path));
  return { file: basename(path), sha256: sha256(text), data };
}

const round4 = (v: number) => Math.round(v * 1e4) / 1e4;

function readOutcomeFiles(paths: readonly string[]): OutcomeRow[] {
  return paths.flatMap((path) =>
    readOutcomes(readFileSync(resolve(process.cwd(), path), "utf8"), subjectOfFile(path)),
  );
}

function readModel(path: string): GradeModel {
  return loadModel(
    validateArtifact(JSON.parse(readFileSync(resolve(process.cwd(), path), "utf8"))),
  );
}

/** model:train --outcomes: a candidate learning from a school's outcomes. */
function trainSchool(args: Args, files: TrainingFile[], out: string): void {
  const current = args.has("current") ? readModel(one(args, "current")) : loadDefaultModel();
  const school = readOutcomeFiles(args.get("outcomes")!);
  const which = setupArg(args, true);
  const seed = int(args, "seed", DEFAULT_SEED);
  const result = trainSchoolCandidate({
    base: concatDatasets(files.map((f) => f.data)),
    baseFiles: files.map((f) => ({ file: f.file, sha256: f.sha256, rows: f.data.n })),
    school,
    current,
    setups: which === "all" ? SETUPS : [which],
    folds: int(args, "cv-folds", 5),
    repeats: int(args, "cv-repeats", 2),
    scoreCandidates: SCORE_CANDIDATES,
    riskParams: { ...RISK_PARAMS, seed },
    seed,
    onProgress: (done, total, msg) => log(`[${done}/${total}] ${msg}`),
  });
  writeFileSync(resolve(process.cwd(), out), `${JSON.stringify(result.artifact)}\n`);
  const candidate = loadModel(result.artifact);
  const report = gate({
    pairs: result.heldOut,
    outcomes: outcomesPerSubject(school),
    minOutcomes: 50,
    checks: structuralChecks(candidate),
  });
  if (args.has("report")) {
    writeFileSync(
      resolve(process.cwd(), one(args, "report")),
      `${JSON.stringify({ weights: result.weights, gate: report })}\n`,
    );
  }
  for (const w of result.weights)
    log(`setup ${w.setup}: school rows weighted ${w.weight} (${w.rows} rows)`);
  log(`wrote ${out} (${result.artifact.modelVersion}); on the school's held-out rows:`);
  log(formatReport(report));
}

function formatReport(r: GateReport): string {
  const f = (v: number | null) => (v === null ? "-" : v.toFixed(4));
  const lines = [
    "setup  measure                  rows  in use    candidate  difference  95% bounds          verdict",
    ...r.comparison.map(
      (c) =>
        `${c.setup.padEnd(6)} ${c.measure.padEnd(24)} ${String(c.rows).padStart(4)}  ${f(c.current).padEnd(9)} ${f(c.candidate).padEnd(10)} ${f(c.difference).padEnd(11)} [${f(c.lower)}, ${f(c.upper)}]  ${c.verdict}`,
    ),
    `outcomes per subject: ${Object.entries(r.outcomes)
      .map(([s, n]) => `${s} ${n}`)
      .join(", ")} (minimum ${r.minOutcomes})`,
    `monotone checks: ${r.checks.monotone ? "pass" : "fail"}; additivity: ${r.checks.additivity ? "pass" : "fail"}`,
    r.promotable ? "promotable" : "refused:",
    ...r.reasons.map((x) => `  - ${x}`),
  ];
  return lines.join("\n");
}

/** model:gate: the candidate against the model in use on held-out outcomes neither saw. */
function gateCmd(args: Args): void {
  const candidate = readModel(one(args, "candidate"));
  const current = readModel(one(args, "current"));
  const paths = args.get("outcomes") ?? [];
  if (paths.length === 0) throw new Error("--outcomes is required");
  const school = readOutcomeFiles(paths);
  const setups = candidate.setups.filter((s) => current.setups.includes(s));
  const report = gate({
    pairs: pairedOn(gateRowsOf(school, setups), candidate, current),
    outcomes: outcomesPerSubject(school),
    minOutcomes: int(args, "min-outcomes", 50),
    checks: structuralChecks(candidate),
    seed: int(args, "seed", 30),
  });
  process.stdout.write(
    args.has("json") ? `${JSON.stringify(report)}\n` : `${formatReport(report)}\n`,
  );
  if (!report.promotable) process.exitCode = 2;
}

function train(args: Args): void {
  const paths = args.get("data") ?? [];
  if (paths.length === 0) throw new Error("--data is required");
  const out = one(args, "out");
  if (args.has("outcomes")) {
    trainSchool(args, paths.map(readData), out);
    return;
  }
  const which = setupArg(args, true);
  const setups = which === "all" ? SETUPS : [which];
  const seed = int(args, "seed", DEFAULT_SEED);
  const evalRepeats = int(args, "eval-repeats", 0);
  const evalFolds = int(args, "eval-folds", 10);
  const files = paths.map(readData);
  const evaluation: Record<string, unknown>[] = [];
  if (evalRepeats > 0) {
    for (const setup of setups)
      files.forEach((f, k) => {
        const others = files.filter((_, j) => j !== k).map((o) => o.data);
        log(`evaluating ${f.file}: setup ${setup}, ${evalRepeats}x${evalFolds}-fold, nested`);
        const r = evaluate({
          data: f.data,
          extra: others.length > 0 ? concatDatasets(others) : undefined,
          setup,
          folds: evalFolds,
          repeats: evalRepeats,
          seed,
          scoreCandidates: SCORE_CANDIDATES,
          riskParams: RISK_PARAMS,
          onProgress: log,
        });
        evaluation.push({
          subject: subjectOf(f.file) ?? f.file,
          protocol: others.length > 0 ? "+other (shipped)" : "alone",
          ...summary(r),
        });
      });
  }
  // figures of record measured apart (`model:eval --json` outputs), kept with the artifact
  for (const path of args.get("evaluation") ?? []) {
    evaluation.push(JSON.parse(readFileSync(resolve(process.cwd(), path), "utf8")));
  }
  const opts = {
    setups,
    scoreCandidates: SCORE_CANDIDATES,
    riskParams: { ...RISK_PARAMS, seed },
    seed,
    evaluation,
    onProgress: log,
  };
  const artifact = buildArtifact(files, opts);
  writeFileSync(resolve(process.cwd(), out), `${JSON.stringify(artifact)}\n`);
  log(`wrote ${out} (${artifact.modelVersion}, setups ${setups.join(", ")})`);
}

function predict(args: Args): void {
  const model = loadModel(
    validateArtifact(JSON.parse(readFileSync(resolve(process.cwd(), one(args, "model")), "utf8"))),
  );
  const path = one(args, "data");
  const subject = args.has("subject") ? one(args, "subject") : subjectOf(path);
  const text = readFileSync(resolve(process.cwd(), path), "utf8");
  const json = args.has("json");
  const lines = parseCsv(text).map((rec) => {
    // the richest setup the model has and the row can feed; columns it does not know (G3,
    // Dalc, Walc, or G1/G2 for a setup that does not use them) are ignored
    const setup = model.setups.find((s) =>
      s === "A" ? "G2" in rec && "G1" in rec : s === "B" ? "G1" in rec : true,
    );
    if (!setup) throw new Error("the file lacks the grades this model needs");
    const input: Record<string, string | undefined> = { subject, ...rec };
    if (setup !== "A") input.G2 = undefined;
    if (setup === "C") input.G1 = undefined;
    const p = model.predict(input);
    return json
      ? JSON.stringify({
          prediction: p.prediction,
          scoreIfSits: p.scoreIfSits,
          noFinalScoreRisk: p.noFinalScoreRisk,
        })
      : String(p.prediction);
  });
  process.stdout.write(lines.length > 0 ? `${lines.join("\n")}\n` : "");
}

/** The figures of an evaluation, rounded, without the held-out rows. */
function summary(r: EvalResult) {
  const { heldOut: _, ...rest } = r;
  return JSON.parse(
    JSON.stringify(rest, (_k, v) => (typeof v === "number" ? round4(v) : v)),
  ) as Record<string, unknown>;
}

function evalCmd(args: Args): void {
  const setup = setupArg(args) as Setup;
  const dataPath = one(args, "data");
  const data = readData(dataPath).data;
  const extraPaths = args.get("extra") ?? [];
  const extra =
    extraPaths.length > 0 ? concatDatasets(extraPaths.map((p) => readData(p).data)) : undefined;
  const r = evaluate({
    data,
    extra,
    setup,
    folds: int(args, "folds", 10),
    repeats: int(args, "repeats", 2),
    seed: int(args, "seed", DEFAULT_SEED),
    scoreCandidates: SCORE_CANDIDATES,
    riskParams: RISK_PARAMS,
    without: args.get("without") ?? [],
    constrained: !args.has("unconstrained"),
    onProgress: log,
  });
  if (args.has("held-out")) {
    writeFileSync(resolve(process.cwd(), one(args, "held-out")), JSON.stringify(r.heldOut));
  }
  if (args.has("json")) {
    const without = args.get("without") ?? [];
    const described = {
      subject: subjectOf(dataPath) ?? basename(dataPath),
      protocol: extra ? "+other (shipped)" : "alone",
      ...(without.length > 0 ? { without } : {}),
      ...(args.has("unconstrained") ? { constrained: false } : {}),
      ...summary(r),
    };
    process.stdout.write(`${JSON.stringify(described)}\n`);
    return;
  }
  const pct = (v: number) => `${(100 * v).toFixed(1)}%`;
  const out = [
    `setup ${setup}, ${r.repeats}x${r.folds}-fold nested`,
    `all rows: rmse ${r.rmse.mean.toFixed(3)} ± ${r.rmse.std.toFixed(3)}  mae ${r.mae.toFixed(3)}  pass accuracy ${pct(r.passAccuracy)}`,
    `students who sat: rmse ${r.rmseSat.mean.toFixed(3)} ± ${r.rmseSat.std.toFixed(3)}`,
    `noFinalScoreRisk: brier ${r.noFinalScoreRisk.brier.toFixed(4)} (baseline ${r.noFinalScoreRisk.baselineBrier.toFixed(4)})  auc ${r.noFinalScoreRisk.auc.toFixed(3)} (baseline ${r.noFinalScoreRisk.baselineAuc.toFixed(3)})`,
    `interval: coverage ${pct(r.intervalCoverage)}  mean width ${r.intervalWidth.toFixed(2)}  reaching 0 ${pct(r.intervalReachesZero)}`,
    "group coverage:",
    ...r.groups.map(
      (g) =>
        `  ${g.group.padEnd(20)} ${String(g.rows).padStart(5)} rows  coverage ${pct(g.coverage).padStart(6)}  rmse ${g.rmse.toFixed(3)}`,
    ),
  ];
  process.stdout.write(`${out.join("\n")}\n`);
}

function main(argv: readonly string[]): void {
  const [cmd, ...rest] = argv;
  const known = cmd === undefined ? undefined : KNOWN[cmd];
  if (!known) throw new Error("usage: cli.ts train|predict|eval|gate [options]");
  const args = parseArgs(rest, known);
  if (cmd === "train") train(args);
  else if (cmd === "predict") predict(args);
  else if (cmd === "eval") evalCmd(args);
  else gateCmd(args);
}

try {
  main(process.argv.slice(2));
} catch (e) {
  log(`error: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
}
