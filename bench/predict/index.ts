/**
 * Inference benchmark for the grade model: artifact load time, and per-prediction latency
 * (p50, p99) of GradeModel.predict (prediction + exact TreeSHAP explanation + interval) over
 * 20,000 random valid inputs, beside a baseline measured in the same run: a trivial linear
 * model over the same encoded input (and JSON.parse of the same input).
 * Run: npx tsx bench/predict/index.ts [--n 20000]
 */
import { readFileSync } from "node:fs";
import { CATEGORIES, FEATURES, loadModel } from "../../packages/model/src/index.ts";

const N = Number(process.argv[process.argv.indexOf("--n") + 1] || 20000) || 20000;

const RANGES: Record<string, [number, number]> = {
  age: [10, 25],
  Medu: [0, 4],
  Fedu: [0, 4],
  traveltime: [1, 4],
  studytime: [1, 4],
  failures: [0, 4],
  famrel: [1, 5],
  freetime: [1, 5],
  goout: [1, 5],
  health: [1, 5],
  absences: [0, 100],
  G1: [0, 20],
  G2: [0, 20],
};

let s = 12345;
const rand = () => {
  s = (s + 0x6d2b79f5) >>> 0;
  let t = s;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

function randomInput(): Record<string, string | number> {
  const rec: Record<string, string | number> = {};
  for (const f of FEATURES) {
    const cats = CATEGORIES[f];
    if (cats) rec[f] = cats[Math.floor(rand() * cats.length)]!;
    else {
      const [lo, hi] = RANGES[f]!;
      rec[f] = lo + Math.floor(rand() * (hi - lo + 1));
    }
  }
  return rec;
}

function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

function time(fn: (i: number) => unknown, n: number): { p50: number; p99: number; mean: number } {
  const t = new Float64Array(n);
  let sink = 0;
  for (let i = 0; i < n; i++) {
    const a = performance.now();
    const r = fn(i);
    t[i] = performance.now() - a;
    if (r) sink++;
  }
  if (sink < 0) console.log(sink);
  const mean = t.reduce((x, y) => x + y, 0) / n;
  t.sort();
  return { p50: percentile(t, 0.5) * 1000, p99: percentile(t, 0.99) * 1000, mean: mean * 1000 };
}

const path = new URL("../../packages/model/artifact/model.json", import.meta.url);
const t0 = performance.now();
const text = readFileSync(path, "utf8");
const model = loadModel(JSON.parse(text));
const loadMs = performance.now() - t0;

const inputs = Array.from({ length: N }, randomInput);
// The first prediction builds the per-tree SHAP tables (kept out of start-up).
const t1 = performance.now();
model.predict(inputs[0]!);
const firstMs = performance.now() - t1;
const jsonInputs = inputs.map((x) => JSON.stringify(x));
// Trivial linear baseline over the same input (same lookups and encoding work, no trees).
const weights = FEATURES.map((_, i) => 0.01 * (i + 1));
const linear = (rec: Record<string, string | number>) => {
  let y = 1;
  for (let f = 0; f < FEATURES.length; f++) {
    const name = FEATURES[f]!;
    const cats = CATEGORIES[name];
    const v = cats ? cats.indexOf(String(rec[name])) : Number(rec[name]);
    y += weights[f]! * v;
  }
  return y;
};

// warm up
for (let i = 0; i < 2000; i++) {
  model.predict(inputs[i % N]!);
  linear(inputs[i % N]!);
  JSON.parse(jsonInputs[i % N]!);
}
const pred = time((i) => model.predict(inputs[i]!), N);
const lin = time((i) => linear(inputs[i]!), N);
const parse = time((i) => JSON.parse(jsonInputs[i]!), N);

const fmt = (x: number) => x.toFixed(1).padStart(8);
console.log(
  `model ${model.version}: ${model.artifact.trees.length} trees, ${(text.length / 1024).toFixed(0)} KiB`,
);
console.log(`load (read + parse + validate): ${loadMs.toFixed(1)} ms`);
console.log(`first prediction (builds the SHAP tables): ${firstMs.toFixed(1)} ms`);
console.log(`per call over ${N} random valid inputs, microseconds:`);
console.log("                          p50      p99     mean");
console.log(`predict + explanation ${fmt(pred.p50)} ${fmt(pred.p99)} ${fmt(pred.mean)}`);
console.log(`baseline linear model ${fmt(lin.p50)} ${fmt(lin.p99)} ${fmt(lin.mean)}`);
console.log(`baseline JSON.parse   ${fmt(parse.p50)} ${fmt(parse.p99)} ${fmt(parse.mean)}`);
console.log(
  `ratio predict / linear: p50 ${(pred.p50 / lin.p50).toFixed(1)}x, p99 ${(pred.p99 / lin.p99).toFixed(1)}x; ` +
    `predict / JSON.parse: p50 ${(pred.p50 / parse.p50).toFixed(1)}x, p99 ${(pred.p99 / parse.p99).toFixed(1)}x`,
);
