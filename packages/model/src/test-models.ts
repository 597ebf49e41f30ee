/** Small models the tests train in seconds on synthetic data, and the shipped model beside them. */

import { existsSync } from "node:fs";
import { concatDatasets } from "./data.ts";
import { DEFAULT_PARAMS, type GbtParams } from "./gbt.ts";
import { loadDefaultModel, loadModel } from "./model.ts";
import { synthetic } from "./testutil.ts";
import { buildArtifact } from "./train.ts";

/** A small score model's parameters. */
export const SMALL = { ...DEFAULT_PARAMS, nTrees: 40, learningRate: 0.1, maxDepth: 3, seed: 7 };
/** A small risk model's parameters. */
export const SMALL_RISK = { ...SMALL, loss: "logistic" as const, nTrees: 30, maxDepth: 2 };

/** Whether the shipped model's artifact is in the checkout. */
export const shipped = existsSync(new URL("../artifact/model.json", import.meta.url));

/**
 * A small model trained on synthetic rows (400 of the first seed, 300 of the second), its score
 * chosen among `scoreCandidates`: the rows, the artifact, the model loaded from the artifact's
 * JSON, and the models a test checks (that one, then the shipped one when it is there).
 */
export function smallModel(seeds: readonly [number, number], scoreCandidates: GbtParams[]) {
  const data = concatDatasets([synthetic(400, seeds[0]), synthetic(300, seeds[1])]);
  const built = buildArtifact([{ file: "a.csv", sha256: "0", data }], {
    scoreCandidates,
    riskParams: SMALL_RISK,
    seed: 7,
    calibrationFolds: 3,
  });
  const small = loadModel(JSON.parse(JSON.stringify(built)));
  return { data, built, small, models: shipped ? [small, loadDefaultModel()] : [small] };
}
