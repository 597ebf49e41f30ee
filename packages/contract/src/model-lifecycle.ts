import { z } from "zod";
import { jobStatusSchema } from "./jobs.ts";

// The model learns from its school (issue 30): the admin screen "Model". The version in use and
// its card, the outcomes the school has recorded per subject and setup, candidates trained on
// them with the gate's comparison and reasons, promotion and rollback.

export const modelVersionStates = ["candidate", "active", "retired", "refused"] as const;
export type ModelVersionState = (typeof modelVersionStates)[number];

const n = z.number().nullable();

export const gateComparisonSchema = z.object({
  setup: z.enum(["A", "B", "C"]),
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
    .array(z.object({ setup: z.enum(["A", "B", "C"]), weight: z.number(), rows: z.number() }))
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
        subject: z.enum(["mat", "por"]),
        setup: z.enum(["A", "B", "C"]),
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
