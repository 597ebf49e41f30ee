import { z } from "zod";
import { modelSetupSchema } from "./api-responses.ts";
import { jobStatusSchema } from "./jobs.ts";
import { subjects } from "./subjects.ts";

// The model learns from its school (issue 30): the admin screen "Model". The version in use and
// its card, the outcomes the school has recorded per subject and setup, candidates trained on
// them with the gate's comparison and reasons, promotion and rollback.

export const modelVersionStates = ["candidate", "active", "retired", "refused"] as const;
export type ModelVersionState = (typeof modelVersionStates)[number];

const n = z.number().nullable();

export const gateComparisonSchema = z.object({
  setup: modelSetupSchema,
  measure: z.string().describe('"scoreIfSits RMSE" or "noFinalScoreRisk Brier"'),
  rows: z.number().int(),
  current: n.describe("The model in use, on the held-out school rows"),
  candidate: n.describe("The candidate, trained without those rows"),
  difference: n.describe("candidate - current"),
  lower: n.describe("Paired bootstrap, one-sided 95 % lower bound of the difference"),
  upper: n.describe("Paired bootstrap, one-sided 95 % upper bound of the difference"),
  verdict: z.enum(["better", "not worse", "worse"]),
});

export const gateReportSchema = z.object({
  promotable: z.boolean(),
  reasons: z.array(z.string()).describe("Why the gate refuses the candidate (empty: it passes)"),
  minOutcomes: z.number().int(),
  outcomes: z.record(z.string(), z.number().int()),
  comparison: z.array(gateComparisonSchema),
  coverage: z.array(
    z.object({
      group: z.string(),
      rows: z.number().int(),
      coverage: z.number(),
      ok: z.boolean(),
    }),
  ),
  checks: z.object({
    monotone: z.boolean(),
    additivity: z.boolean(),
    failures: z.array(z.string()),
  }),
});
export type GateReportView = z.infer<typeof gateReportSchema>;

export const modelVersionSchema = z.object({
  id: z.string(),
  state: z.enum(modelVersionStates),
  shipped: z.boolean().describe("The artifact that came with Gradecast"),
  createdAt: z.string().nullable(),
  promotedAt: z.string().nullable(),
  outcomes: z.number().int().describe("School outcome rows it was trained on"),
  weights: z
    .array(z.object({ setup: modelSetupSchema, weight: z.number(), rows: z.number() }))
    .describe("The weight of the school's rows per setup, chosen by cross-validation"),
  gate: gateReportSchema.nullable(),
});
export type ModelVersionView = z.infer<typeof modelVersionSchema>;

export const cardFigureSchema = z.object({
  subject: z.string(),
  setup: z.string(),
  protocol: z.string(),
  rmseSat: n.describe("scoreIfSits RMSE on the students who sat"),
  brier: n.describe("Brier score of noFinalScoreRisk"),
  coverage: n.describe("80 % interval coverage"),
});

export const modelStateSchema = z.object({
  active: modelVersionSchema,
  card: z.array(cardFigureSchema).describe("The cross-validated figures of the model card"),
  minOutcomes: z.number().int(),
  outcomes: z
    .array(
      z.object({
        subject: z.enum(subjects),
        setup: modelSetupSchema,
        rows: z.number().int(),
      }),
    )
    .describe("Outcome rows available per subject and setup (a student counted once per setup)"),
  students: z
    .record(z.string(), z.number().int())
    .describe("Students with an outcome, per subject"),
  training: jobStatusSchema.nullable().describe("The training queued or running, if any"),
  versions: z.array(modelVersionSchema).describe("Every version, newest first"),
});
export type ModelState = z.infer<typeof modelStateSchema>;

export const modelTrainAnswerSchema = z.object({ job: jobStatusSchema });
export const modelSwitchBodySchema = z.object({
  version: z.string().min(1).max(200).describe("The version to put in use"),
});
export const modelSwitchAnswerSchema = z.object({
  active: modelVersionSchema,
  recomputeJob: z.string().describe("The recomputation of stored predictions it started"),
});

export const modelMessages = {
  trainingRunning: "A candidate is already being trained",
  notPromotable: "The gate refused this candidate; it cannot be put in use.",
  notCandidate: "Only a candidate that passed the gate can be promoted.",
  notEarlier: "Only an earlier version can be rolled back to.",
  alreadyActive: "This version is already in use.",
} as const;

/** The range each group's 80 % interval coverage must reach, beyond its sampling error. */
export const gateCoverageRange = [0.7, 0.9] as const;

/** Why the gate refuses a candidate, as data: each language words it (English below). */
export type GateReason =
  | { code: "no_outcomes" }
  | { code: "few_outcomes"; subject: string; outcomes: number; needed: number }
  | { code: "no_held_out" }
  | {
      code: "worse";
      setup: string;
      measure: string;
      candidate: number | null;
      current: number | null;
    }
  | { code: "coverage"; group: string; rows: number; coverage: number }
  | { code: "monotone" }
  | { code: "additivity" };

/**
 * The gate's reasons, in the order it gives them, from its report's own figures: the model's
 * gate writes its English reasons from these, and a screen in another language words the same
 * list from a stored report (whose English reasons stay as they were written).
 */
export function gateReasons(
  report: Pick<GateReportView, "minOutcomes" | "outcomes" | "comparison" | "coverage" | "checks">,
): GateReason[] {
  const reasons: GateReason[] = [];
  const subjects = Object.entries(report.outcomes).filter(([, n]) => n > 0);
  if (subjects.length === 0) reasons.push({ code: "no_outcomes" });
  for (const [subject, n] of subjects) {
    if (n < report.minOutcomes) {
      reasons.push({ code: "few_outcomes", subject, outcomes: n, needed: report.minOutcomes });
    }
  }
  // A comparison row per setup and measure of the held-out rows: none means no rows.
  if (report.comparison.length === 0) reasons.push({ code: "no_held_out" });
  for (const c of report.comparison) {
    if (c.verdict !== "worse") continue;
    const { setup, measure, candidate, current } = c;
    reasons.push({ code: "worse", setup, measure, candidate, current });
  }
  for (const g of report.coverage) {
    if (!g.ok)
      reasons.push({ code: "coverage", group: g.group, rows: g.rows, coverage: g.coverage });
  }
  if (!report.checks.monotone) reasons.push({ code: "monotone" });
  if (!report.checks.additivity) reasons.push({ code: "additivity" });
  return reasons;
}

/** A reason in English, as the gate stores it. */
export function englishGateReason(r: GateReason): string {
  const [lo, hi] = gateCoverageRange;
  switch (r.code) {
    case "no_outcomes":
      return "The school has no recorded outcomes.";
    case "few_outcomes":
      return `${r.subject}: ${r.outcomes} outcomes, fewer than the ${r.needed} a candidate needs.`;
    case "no_held_out":
      return "No held-out rows to compare the models on.";
    case "worse":
      return `Setup ${r.setup}: ${r.measure} ${r.candidate} against ${r.current} for the model in use (worse).`;
    case "coverage":
      return `Interval coverage ${(100 * r.coverage).toFixed(0)} % for ${r.group} (${r.rows} rows), outside ${100 * lo}-${100 * hi} % beyond its sampling error.`;
    case "monotone":
      return "A monotone check fails on the candidate.";
    case "additivity":
      return "An additivity check fails on the candidate.";
  }
}
