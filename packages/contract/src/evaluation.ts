import { z } from "zod";
import { subjects } from "./subjects.ts";

// How the model did for this school (issue 29): once final grades are recorded, the predictions
// made before each outcome was known are scored, per setup at the time (C before G1, B after
// G1, A after G2), beside what the model card's cross-validation expects, with a bootstrap
// interval. Admins see every class, a teacher the classes they teach. The CSV export names
// students only by a pseudonym.

export const evaluationSetups = ["C", "B", "A"] as const;
export type EvaluationSetup = (typeof evaluationSetups)[number];

export const evaluationMeasures = ["rmse", "mae", "accuracy", "brier", "auc", "coverage"] as const;
export type EvaluationMeasure = (typeof evaluationMeasures)[number];

/** Groups under this many students are not shown (too few to say anything, and too personal). */
export const minGroupSize = 5;

/** What each setup knew when it predicted. */
export const setupLabels: Record<EvaluationSetup, string> = {
  C: "Before the first period grade (setup C)",
  B: "After the first period grade (setup B)",
  A: "After the second period grade (setup A)",
};

/** Each measure's name and, in plain words, what it says. */
export const measureInfo: Record<
  EvaluationMeasure,
  { label: string; explain: string; lowerIsBetter: boolean; percent: boolean }
> = {
  rmse: {
    label: "Typical error of the score (RMSE)",
    explain:
      "For students who sat the final: how far the predicted score was from the final grade, in grade points, with big misses counting more.",
    lowerIsBetter: true,
    percent: false,
  },
  mae: {
    label: "Average error of the score (MAE)",
    explain:
      "For students who sat the final: the average distance between the predicted score and the final grade, in grade points.",
    lowerIsBetter: true,
    percent: false,
  },
  accuracy: {
    label: "Pass or fail right",
    explain:
      "How often the prediction (10 or more is a pass) matched the final grade; not sitting the final counts as a fail.",
    lowerIsBetter: false,
    percent: true,
  },
  brier: {
    label: "Risk of not sitting: Brier score",
    explain:
      "How close the predicted risk of not sitting the final was to what happened (0 is perfect; lower is better).",
    lowerIsBetter: true,
    percent: false,
  },
  auc: {
    label: "Risk of not sitting: ranking (AUC)",
    explain:
      "The chance that a student who did not sit had a higher predicted risk than one who sat (1 is perfect, 0.5 is guessing).",
    lowerIsBetter: false,
    percent: false,
  },
  coverage: {
    label: "Range held the final grade",
    explain:
      "How often the final grade fell within the predicted 80 % range (about 80 % is expected; not sitting counts as 0).",
    lowerIsBetter: false,
    percent: true,
  },
};

const formatFigure = (m: EvaluationMeasure, v: number) =>
  measureInfo[m].percent ? `${Math.round(v * 100)} %` : v.toFixed(m === "brier" ? 3 : 2);

export const evaluationMessages = {
  /** The plain sentence beside a figure worse than the model card's beyond noise. */
  worse: (m: EvaluationMeasure, value: number, expected: number) =>
    `${measureInfo[m].label}: ${formatFigure(m, value)} here against ${formatFigure(m, expected)} expected. That is worse than the model card's figure by more than chance explains.`,
  empty:
    "No outcomes yet: record final grades in the class's gradebook, and this page scores the predictions made before them.",
  groupsHidden: (n: number) =>
    `${n} group${n === 1 ? "" : "s"} with fewer than ${minGroupSize} students not shown.`,
} as const;

export { formatFigure as formatEvaluationFigure };

export const evaluationQuerySchema = z.object({
  classId: z
    .string()
    .max(100)
    .optional()
    .describe("One class (its teachers and admins); without it, every class the caller may see"),
});
export type EvaluationQuery = z.infer<typeof evaluationQuerySchema>;

const intervalSchema = z.object({ low: z.number(), high: z.number() });

export const evaluationFigureSchema = z.object({
  measure: z.enum(evaluationMeasures),
  value: z.number().nullable(),
  /** Bootstrap 95 % interval (null: too few students, or the figure is undefined). */
  interval: intervalSchema.nullable(),
  /** The model card's cross-validated figure for this setup and subject mix (null: none). */
  expected: z.number().nullable(),
  worse: z.boolean(),
  note: z.string().nullable(),
});
export type EvaluationFigure = z.infer<typeof evaluationFigureSchema>;

export const calibrationBinSchema = z.object({
  from: z.number(),
  to: z.number(),
  n: z.number().int(),
  predicted: z.number(),
  observed: z.number(),
});
export type CalibrationBin = z.infer<typeof calibrationBinSchema>;

// "version": the model version that made the predictions (issue 30: a school that promoted a
// candidate sees each version's figures apart).
export const evaluationGroupKinds = ["version", "class", "sex", "age", "address"] as const;
export const groupKindLabels: Record<(typeof evaluationGroupKinds)[number], string> = {
  version: "Model version",
  class: "Class",
  sex: "Sex",
  age: "Age",
  address: "Home address",
};

export const evaluationGroupSchema = z.object({
  kind: z.enum(evaluationGroupKinds),
  label: z.string(),
  n: z.number().int(),
  sat: z.number().int(),
  rmse: z.number().nullable(),
  accuracy: z.number().nullable(),
  coverage: z.number().nullable(),
});
export type EvaluationGroup = z.infer<typeof evaluationGroupSchema>;

export const setupEvaluationSchema = z.object({
  setup: z.enum(evaluationSetups),
  /** Students with an outcome and a prediction of this setup made before it. */
  n: z.number().int(),
  sat: z.number().int(),
  figures: z.array(evaluationFigureSchema),
  calibration: z.object({
    risk: z.array(calibrationBinSchema),
    score: z.array(calibrationBinSchema),
  }),
  groups: z.array(evaluationGroupSchema),
  hiddenGroups: z.number().int(),
});
export type SetupEvaluation = z.infer<typeof setupEvaluationSchema>;

export const evaluationClassSchema = z.object({
  id: z.string(),
  name: z.string(),
  subject: z.enum(subjects),
});

export const evaluationSchema = z.object({
  /** The classes the caller may pick. */
  classes: z.array(evaluationClassSchema),
  classId: z.string().nullable(),
  /** Students with a recorded outcome in scope. */
  outcomes: z.number().int(),
  resamples: z.number().int(),
  setups: z.array(setupEvaluationSchema),
});
export type Evaluation = z.infer<typeof evaluationSchema>;

/** The CSV export's columns, one row per student and setup. */
export const evaluationCsvColumns = [
  "pseudonym",
  "class",
  "subject",
  "setup",
  "predicted_score",
  "score_if_sits",
  "risk_no_final",
  "interval_low",
  "interval_high",
  "G3",
  "sat",
  "predicted_at",
  "outcome_at",
] as const;
