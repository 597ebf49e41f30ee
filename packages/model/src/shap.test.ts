import { describe, expect, it } from "vitest";
import { predictTree, type Tree } from "./gbt.ts";
import { mulberry32 } from "./prng.ts";
import { buildExplainer, explainRow, ShapWorkspace, treeShap } from "./shap.ts";

// The explanation tables against the reference recursion (treeShap) on random trees: deep ones
// (split into several groups, down to single leaves), features repeated along a path, numeric
// and categorical splits, and inputs on, between and beyond the thresholds, NaN and unknown
// categories.

const NUM = 8;
/** Features 5 to 7 are categorical with 4 categories. */
const CATEGORIES = [0, 0, 0, 0, 0, 4, 4, 4];

function randomTree(rand: () => number, maxDepth: number): Tree {
  const t: Tree = { feature: [], threshold: [], left: [], right: [], value: [], cover: [] };
  const grow = (depth: number, cover: number): number => {
    const node = t.feature.length;
    t.feature.push(-1);
    t.threshold.push(0);
    t.left.push(-1);
    t.right.push(-1);
    t.value.push(0);
    t.cover.push(cover);
    if (depth >= maxDepth || (depth > 1 && rand() < 0.2)) {
      t.value[node] = (rand() - 0.5) * 4;
      return node;
    }
    // Few features, so that paths repeat them.
    const f = Math.floor(rand() * NUM);
    t.feature[node] = f;
    t.threshold[node] = CATEGORIES[f]! > 0 ? 1 + Math.floor(rand() * 14) : Math.floor(rand() * 10);
    const share = 0.1 + rand() * 0.8;
    t.left[node] = grow(depth + 1, cover * share);
    t.right[node] = grow(depth + 1, cover * (1 - share));
    return node;
  };
  grow(0, 100);
  return t;
}

function randomRow(rand: () => number): Float64Array {
  const x = new Float64Array(NUM);
  for (let f = 0; f < NUM; f++) {
    const r = rand();
    if (CATEGORIES[f]! > 0) x[f] = r < 0.1 ? -1 : Math.floor(rand() * 5);
    else if (r < 0.05) x[f] = Number.NaN;
    else if (r < 0.5) x[f] = Math.floor(rand() * 11);
    else x[f] = rand() * 12 - 1;
  }
  return x;
}

describe("explanation tables", () => {
  it("give the reference TreeSHAP values and the trees' output, to 1e-9", () => {
    const rand = mulberry32(2024);
    const ws = new ShapWorkspace();
    let groups = 0;
    for (let round = 0; round < 20; round++) {
      const trees = Array.from({ length: 6 }, (_, i) => randomTree(rand, 2 + ((round + i) % 7)));
      const explainer = buildExplainer(trees, CATEGORIES);
      groups += explainer.groupTableStart.length - trees.length;
      for (let i = 0; i < 200; i++) {
        const x = randomRow(rand);
        const expected = new Float64Array(NUM);
        let output = 0;
        for (const t of trees) {
          treeShap(t, x, 0, CATEGORIES, expected, ws);
          output += predictTree(t, x, 0, CATEGORIES);
        }
        const phi = new Float64Array(NUM);
        expect(Math.abs(explainRow(explainer, x, phi) - output)).toBeLessThan(1e-9);
        for (let f = 0; f < NUM; f++) expect(Math.abs(phi[f]! - expected[f]!)).toBeLessThan(1e-9);
      }
    }
    // Deep trees were split into several groups (the split path was exercised).
    expect(groups).toBeGreaterThan(0);
  });
});
