/**
 * What leaving each optional question out costs (issue 31; the model card's table): the
 * project's nested evaluation (cv.ts, shipped protocol: each subject's folds trained with the
 * other subject's rows added), and on the very same held-out rows and trained folds the headline
 * with the question marginalised as the server answers "Prefer not to say" (marginal.ts).
 *
 *   npx tsx packages/model/scripts/optional-cost.ts [--data-dir ../shared/data] [--repeats 2]
 *     [--setup A|B|C] [--subject mat|por]
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { evaluate } from "../src/cv.ts";
import { FEATURES, NUM_FEATURES, parseCsv, toDataset } from "../src/data.ts";
import { predictParts, SETUPS, type Setup } from "../src/hurdle.ts";
import { marginalise } from "../src/marginal.ts";
import { DEFAULT_SEED, RISK_PARAMS, SCORE_CANDIDATES } from "../src/params.ts";

const OPTIONAL = ["health", "romantic", "famrel", "Pstatus", "Mjob", "Fjob"] as const;
const VARIANTS: { name: string; out: string[] }[] = [
  { name: "all answered", out: [] },
  ...OPTIONAL.map((k) => ({ name: `without ${k}`, out: [k] })),
  { name: "without all six", out: [...OPTIONAL] },
];

const args = process.argv.slice(2);
const arg = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
};
const dir = resolve(process.cwd(), arg("data-dir", "../shared/data"));
const repeats = Number(arg("repeats", "2"));
const setups = (args.includes("--setup") ? [arg("setup", "A")] : SETUPS) as Setup[];
const subjects = args.includes("--subject") ? [arg("subject", "mat")] : ["mat", "por"];
const read = (s: string) =>
  toDataset(parseCsv(readFileSync(`${dir}/student-${s}.csv`, "utf8")), true, s as "mat" | "por");

console.log(
  `| subject | setup | ${VARIANTS.map((v) => v.name).join(" | ")} |\n| --- | --- |${VARIANTS.map(() => " --- |").join("")}`,
);
for (const subject of subjects) {
  const data = read(subject);
  const extra = read(subject === "mat" ? "por" : "mat");
  for (const setup of setups) {
    // squared errors per variant and repeat
    const se = VARIANTS.map(() => Array.from({ length: repeats }, () => ({ se: 0, n: 0 })));
    evaluate({
      data,
      extra,
      setup,
      folds: 10,
      repeats,
      seed: DEFAULT_SEED,
      scoreCandidates: SCORE_CANDIDATES,
      riskParams: RISK_PARAMS,
      onProgress: (m) => process.stderr.write(`${subject} ${m}\n`),
      onFold: (m, test, r) => {
        VARIANTS.forEach((v, k) => {
          const out = new Set(v.out.map((f) => FEATURES.indexOf(f as never)));
          const mm = { ...m, score: marginalise(m.score, out), risk: marginalise(m.risk, out) };
          for (const i of test) {
            const p = predictParts(mm, data.x, i * NUM_FEATURES);
            se[k]![r]!.se += (p.headline - data.y[i]!) ** 2;
            se[k]![r]!.n++;
          }
        });
      },
    });
    const rmse = se.map((rs) => rs.reduce((s, x) => s + Math.sqrt(x.se / x.n), 0) / rs.length);
    console.log(
      `| ${subject === "mat" ? "Mathematics" : "Portuguese"} | ${setup} | ${rmse
        .map((v, k) =>
          k === 0
            ? v.toFixed(3)
            : `${v.toFixed(3)} (${v - rmse[0]! >= 0 ? "+" : ""}${(v - rmse[0]!).toFixed(3)})`,
        )
        .join(" | ")} |`,
    );
  }
}
