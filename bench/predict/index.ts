/**
 * The explained prediction in-process: GradeModel.predict (prediction, its 30 contributions and
 * the interval) on the shipped model over 20,000 random valid inputs, beside the same model's
 * prediction without explanation (the same inputs encoded, both parts' trees summed and combined),
 * measured in alternating blocks in the same run; the artifact's load (read, parse, validate,
 * the explanation tables built) and the first call after it.
 * Targets (issue 22): p50 at most 0.05 ms, p99 at most 0.2 ms, at most 5 times the prediction
 * without explanation.
 * Run: npx tsx bench/predict/index.ts [--n 20000]
 */
import { readFileSync } from "node:fs";
import { encodeRecord, NUM_FEATURES } from "../../packages/model/src/data.ts";
import { rawOutput } from "../../packages/model/src/ensemble.ts";
import { loadModel } from "../../packages/model/src/index.ts";
import { mulberry32 } from "../../packages/model/src/prng.ts";
import { randomInput } from "../../packages/model/src/testutil.ts";
import { numberArg } from "../lib/args.ts";
import { loadAverage, printRunEnd } from "../lib/load.ts";

const N = numberArg("n", 20000);

// Valid inputs as the app accepts them (the questionnaire's ranges), from a fixed seed.
const rand = mulberry32(12345);

function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

const path = new URL("../../packages/model/artifact/model.json", import.meta.url);
const t0 = performance.now();
const text = readFileSync(path, "utf8");
const model = loadModel(JSON.parse(text));
const loadMs = performance.now() - t0;

const inputs = Array.from({ length: N }, () => randomInput(rand));
// The first call after load: the tables are built by loadModel, so it should cost what the
// others do (apart from the JIT's first run).
const t1 = performance.now();
model.predict(inputs[0]!);
const firstMs = performance.now() - t1;

const x = new Float64Array(NUM_FEATURES);
// Setup A (G1 and G2 known), the one the random inputs ask; the risk's calibration is left out.
const setupA = model.artifact.setups.find((s) => s.setup === "A")!;
const withoutExplanation = (rec: Record<string, string | number>) => {
  encodeRecord(rec, x);
  const risk = 1 / (1 + Math.exp(-rawOutput(setupA.risk, x)));
  return (1 - risk) * rawOutput(setupA.score, x);
};

// Warm-up, then blocks of 1,000 calls alternating between the two, so that both see the same
// neighbours.
for (let i = 0; i < 3000; i++) {
  model.predict(inputs[i % N]!);
  withoutExplanation(inputs[i % N]!);
}
const explained = new Float64Array(N);
const plain = new Float64Array(N);
let sink = 0;
for (let block = 0; block < N; block += 1000) {
  for (let i = block; i < Math.min(N, block + 1000); i++) {
    const a = performance.now();
    sink += model.predict(inputs[i]!).raw;
    explained[i] = performance.now() - a;
  }
  for (let i = block; i < Math.min(N, block + 1000); i++) {
    const a = performance.now();
    sink += withoutExplanation(inputs[i]!);
    plain[i] = performance.now() - a;
  }
}
if (Number.isNaN(sink)) console.log(sink);
explained.sort();
plain.sort();
const e = { p50: percentile(explained, 0.5), p99: percentile(explained, 0.99) };
const pl = { p50: percentile(plain, 0.5), p99: percentile(plain, 0.99) };

const us = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;
console.log(
  `model ${model.version}: ${model.artifact.setups.reduce((n, s) => n + s.score.trees.length + s.risk.trees.length, 0)} trees, ${(text.length / 1024).toFixed(0)} KiB; ${new Date().toISOString()}, load average ${loadAverage()}`,
);
console.log(`load (read + parse + validate + explanation tables): ${loadMs.toFixed(1)} ms`);
console.log(`first prediction after load: ${firstMs.toFixed(2)} ms`);
console.log(`per call over ${N} random valid inputs:`);
console.log(`  explained prediction (predict)      p50 ${us(e.p50)}, p99 ${us(e.p99)}`);
console.log(`  without explanation (trees summed)   p50 ${us(pl.p50)}, p99 ${us(pl.p99)}`);
const line = (name: string, holds: boolean, detail: string) =>
  console.log(`${holds ? "HOLDS " : "MISSED"}  ${name}: ${detail}`);
line("explained prediction p50 at most 0.05 ms", e.p50 <= 0.05, us(e.p50));
line("explained prediction p99 at most 0.2 ms", e.p99 <= 0.2, us(e.p99));
line(
  "explained prediction at most 5x the prediction without explanation",
  e.p50 / pl.p50 <= 5 && e.p99 / pl.p99 <= 5,
  `p50 ${(e.p50 / pl.p50).toFixed(1)}x, p99 ${(e.p99 / pl.p99).toFixed(1)}x`,
);
printRunEnd();
