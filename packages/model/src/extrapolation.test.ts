import { describe, expect, test } from "vitest";
import { FEATURES, type FeatureName, NUM_FEATURES } from "./data.ts";
import { seenPairs, unseenCombinations } from "./extrapolation.ts";

// A row with the given inputs (others 0), encoded as the model reads it.
function row(values: Partial<Record<FeatureName, number>>): Float64Array {
  const x = new Float64Array(NUM_FEATURES);
  for (const [name, v] of Object.entries(values)) x[FEATURES.indexOf(name as FeatureName)] = v;
  return x;
}

describe("combinations the training never saw", () => {
  const training = [row({ G1: 12, G2: 13, absences: 2 }), row({ G1: 3, G2: 4, absences: 20 })];
  const x = new Float64Array(training.length * NUM_FEATURES);
  training.forEach((r, i) => {
    x.set(r, i * NUM_FEATURES);
  });
  const seen = seenPairs(x, training.length, ["G1", "G2", "absences"]);

  test("a seen combination is not flagged, whatever the values inside its bins", () => {
    expect(unseenCombinations(seen, row({ G1: 13, G2: 12, absences: 3 }))).toEqual([]);
    // Asked twice of the same artifact: the same answer.
    expect(unseenCombinations(seen, row({ G1: 4, G2: 3, absences: 16 }))).toEqual([]);
  });

  test("an unseen pair names both its inputs", () => {
    // G1 high with G2 low never occurred together; absences go with each as in training.
    expect(unseenCombinations(seen, row({ G1: 12, G2: 4, absences: 2 })).sort()).toEqual([
      "G1",
      "G2",
      "absences",
    ]);
    expect(unseenCombinations(seen, row({ G1: 12, G2: 13, absences: 20 })).sort()).toEqual([
      "G1",
      "G2",
      "absences",
    ]);
  });

  test("a pair with an unknown input (NaN) is not judged", () => {
    expect(unseenCombinations(seen, row({ G1: 12, G2: Number.NaN, absences: 2 }))).toEqual([]);
  });
});
