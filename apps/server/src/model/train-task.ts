import { readFileSync } from "node:fs";
import path from "node:path";
import type { MessagePort } from "node:worker_threads";
import {
  concatDatasets,
  type GateReport,
  gate,
  loadModel,
  type ModelArtifact,
  type OutcomeRow,
  outcomesPerSubject,
  parseCsv,
  RISK_PARAMS,
  SCORE_CANDIDATES,
  type SchoolTrainResult,
  sha256,
  structuralChecks,
  toDataset,
  trainSchoolCandidate,
} from "@gradecast/model";

// The work of one training, pure of the server: the UCI files, the school's outcome rows and
// the model in use in; the candidate's artifact, its weights and its gate report out. Runs on a
// worker thread (train-worker.mjs); progress goes back through `port`.

export interface TrainSettings {
  folds: number;
  repeats: number;
  weights: number[];
  /** How many of the eleven score candidates the final fit chooses among (all by default). */
  candidates: number;
  calibrationFolds: number;
  cvCalibrationFolds: number;
  checkProfiles: number;
}

export const defaultTrainSettings: TrainSettings = {
  folds: 5,
  repeats: 2,
  weights: [1, 2, 4],
  candidates: SCORE_CANDIDATES.length,
  calibrationFolds: 10,
  cvCalibrationFolds: 5,
  checkProfiles: 60,
};

export interface TrainTask {
  dataDir: string;
  /** The files the shipped artifact was trained on, with their sha256. */
  files: { file: string; sha256: string }[];
  school: OutcomeRow[];
  current: ModelArtifact;
  minOutcomes: number;
  seed: number;
  settings: TrainSettings;
  port?: MessagePort;
}

export interface TrainOutcome {
  artifact: ModelArtifact;
  weights: SchoolTrainResult["weights"];
  report: GateReport;
}

export function runTraining(task: TrainTask): TrainOutcome {
  const files = task.files.map(({ file, sha256: expected }) => {
    let text: Buffer;
    try {
      text = readFileSync(path.join(task.dataDir, file));
    } catch {
      throw new Error(`The training file ${file} is not in MODEL_DATA_DIR.`);
    }
    if (expected && sha256(text) !== expected) {
      throw new Error(`The training file ${file} is not the one the model was trained on.`);
    }
    const subject = /mat/.test(file) ? "mat" : /por/.test(file) ? "por" : undefined;
    return {
      file,
      sha256: expected,
      data: toDataset(parseCsv(text.toString("utf8")), true, subject),
    };
  });
  const current = loadModel(task.current);
  const s = task.settings;
  const result = trainSchoolCandidate({
    base: concatDatasets(files.map((f) => f.data)),
    baseFiles: files.map((f) => ({ file: f.file, sha256: f.sha256, rows: f.data.n })),
    school: task.school,
    current,
    weights: s.weights,
    folds: s.folds,
    repeats: s.repeats,
    scoreCandidates: SCORE_CANDIDATES.slice(0, Math.max(1, s.candidates)),
    riskParams: { ...RISK_PARAMS, seed: task.seed },
    calibrationFolds: s.calibrationFolds,
    cvCalibrationFolds: s.cvCalibrationFolds,
    seed: task.seed,
    onProgress: (done, total) => task.port?.postMessage({ done, total }),
  });
  const candidate = loadModel(result.artifact);
  const report = gate({
    pairs: result.heldOut,
    outcomes: outcomesPerSubject(task.school),
    minOutcomes: task.minOutcomes,
    checks: structuralChecks(candidate, s.checkProfiles),
  });
  return { artifact: result.artifact, weights: result.weights, report };
}
