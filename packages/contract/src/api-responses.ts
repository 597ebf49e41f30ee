import { z } from "zod";
import { cursorPage } from "./cursor-page.ts";
import {
  isOptionalCapable,
  notAsked,
  type QuestionKey,
  type Questionnaire,
  questionKeys,
  questions,
} from "./questionnaire.ts";
import { behaviors, reportLimits } from "./reports.ts";
import { inputSourceSchema } from "./school-record.ts";

// The answers of the routes, as zod schemas: the one source of their shapes. The server's route
// schemas (and so the OpenAPI document) use them, and their types are `z.infer` of them, exported
// here and under their domain's module (prediction.ts, analytics.ts, report-students.ts) with
// type-only exports, so no screen's bundle gains zod by naming an answer.

const band = z.enum(["improve", "good", "congratulations"]);
const isoTime = z.string().describe("ISO 8601 time");
const score = z.number().min(0).max(20);

/** A saved questionnaire's answers as the API answers them: numbers as numbers, codes as codes. */
export const questionnaireAnswersSchema = z.object(
  Object.fromEntries(
    questions.map((question) => {
      const values = question.options.map((o) => o.value);
      if (question.kind === "number") {
        const number = z
          .number()
          .int()
          .min(values[0] as number)
          .max(values[values.length - 1] as number);
        return [
          question.key,
          question.unknownLabel !== undefined || isOptionalCapable(question.key)
            ? number.nullable()
            : number,
        ];
      }
      const choice = z.enum(values.map(String) as [string, ...string[]]);
      return [
        question.key,
        notAsked.has(question.key) || question.key === "subject" || isOptionalCapable(question.key)
          ? choice.nullable()
          : choice,
      ];
    }),
  ) as unknown as { [K in QuestionKey]: z.ZodType<Questionnaire[K]> },
);

const questionKey = z.enum(questionKeys as unknown as [QuestionKey, ...QuestionKey[]]);

/** A saved questionnaire: the answers (numbers as numbers, null when not known) and when it was saved. */
export const studentRecordSchema = questionnaireAnswersSchema.extend({
  id: z.string(),
  createdAt: isoTime,
});
export type StudentRecord = z.infer<typeof studentRecordSchema>;
export const studentRecordListSchema = z.object({ items: z.array(studentRecordSchema) });

/**
 * Which model answered, by what is known: A both term grades, B the first only, C neither.
 * Fewer grades, wider interval.
 */
export const modelSetupSchema = z.enum(["A", "B", "C"]);
export type ModelSetup = z.infer<typeof modelSetupSchema>;
/**
 * Where each input came from (issue 29): "school" where the class's school record holds the
 * value (it wins over the student's answer), "student" otherwise.
 */
const sources = z.record(questionKey, inputSourceSchema);
/** The calibrated probability (0-1) that the student does not sit the final (ends with 0). */
const noFinalScoreRisk = z.number().min(0).max(1);
/** The class whose record and subject the prediction used; null for a student in no class. */
const classId = z.string().nullable();

const predictionContributionSchema = z.object({
  feature: questionKey,
  /** The question's human label, e.g. "Weekly study time". */
  label: z.string(),
  /** The answer given (a number for numeric questions, the code otherwise; null when not known). */
  value: z.union([z.string(), z.number(), z.null()]),
  /** How many points this answer moved the prediction from the base value (+ up, - down). */
  effect: z.number(),
  /** Whether a student can change this answer (the what-if panel offers these). */
  actionable: z.boolean(),
});
export type PredictionContribution = z.infer<typeof predictionContributionSchema>;

const predictionIntervalSchema = z.object({
  low: z.number(),
  high: z.number(),
  /** Coverage of the interval, e.g. 0.8 for 80 %. */
  level: z.number().min(0).max(1),
});
export type PredictionInterval = z.infer<typeof predictionIntervalSchema>;

/** The answer of POST /api/predict. */
export const predictionResultSchema = z.object({
  /**
   * The predicted final score out of 20 (clamped to 0-20): the field the original read. It is
   * the expected score, (1 - noFinalScoreRisk) * scoreIfSits (see `combination`).
   */
  prediction: score,
  /** Which model answered: A (G1 and G2 known), B (G1 only), C (neither). */
  modelSetup: modelSetupSchema,
  /** The predicted final score if the student sits the final (0-20). */
  scoreIfSits: score,
  noFinalScoreRisk,
  /** How `prediction` combines the two parts, in words (from the model). */
  combination: z.string(),
  /** The prediction before clamping: baseValue plus every effect. */
  raw: z.number(),
  band,
  message: z.string(),
  interval: predictionIntervalSchema,
  /** The model's average prediction, where the explanation starts. */
  baseValue: z.number(),
  /** Every answer's effect, largest first. */
  contributions: z.array(predictionContributionSchema),
  /** True when some answer lies outside what the model was trained on. */
  extrapolation: z.boolean(),
  extrapolationFeatures: z.array(questionKey),
  modelVersion: z.string(),
  /** The inputs the prediction was made from, exactly as the model saw them (numbers as numbers). */
  inputs: questionnaireAnswersSchema,
  sources,
  classId,
  /** Set when the prediction was stored (not for what-if calls). */
  id: z.string().nullable(),
  createdAt: isoTime.nullable(),
});
export type PredictionResult = z.infer<typeof predictionResultSchema>;

/** One stored prediction in GET /api/predictions/mine. */
const predictionHistoryItemSchema = z.object({
  id: z.string(),
  createdAt: isoTime,
  prediction: score,
  band,
  message: z.string(),
  interval: z.object({ low: z.number(), high: z.number() }),
  extrapolation: z.boolean(),
  modelVersion: z.string(),
  inputs: questionnaireAnswersSchema,
  /** All "student" for predictions stored before the school record. */
  sources,
  classId,
  /** Null (here and in the next two) for predictions stored before the model answered in two parts. */
  modelSetup: modelSetupSchema.nullable(),
  scoreIfSits: score.nullable(),
  noFinalScoreRisk: noFinalScoreRisk.nullable(),
});
export type PredictionHistoryItem = z.infer<typeof predictionHistoryItemSchema>;

/** The answer of GET /api/predictions/mine: newest first. */
export const predictionHistorySchema = z.object({
  items: z.array(predictionHistoryItemSchema),
  /**
   * The newest prediction with its explanation, recomputed from its stored answers when the
   * model that made it is still the one in use; null otherwise (or with no predictions).
   */
  latest: predictionResultSchema.nullable(),
});
export type PredictionHistory = z.infer<typeof predictionHistorySchema>;

/** GET /api/predictions (admins): stored predictions of every student, newest first. */
export const predictionRecordListSchema = z.object({
  items: z.array(predictionHistoryItemSchema.extend({ userId: z.string() })),
});

const bounded = (key: "marks" | "attendance" | "assignments") =>
  z.number().int().min(reportLimits[key].min).max(reportLimits[key].max);

/** A report as the API answers it: the student's account and class when it names one. */
export const linkedReportSchema = z.object({
  id: z.string(),
  studentName: z.string().max(reportLimits.studentName.max),
  course: z.string().max(reportLimits.course.max),
  marks: bounded("marks"),
  attendance: bounded("attendance"),
  assignments: bounded("assignments"),
  behavior: z.enum(behaviors),
  feedback: z.string().max(reportLimits.feedback.max),
  authorId: z.string(),
  authorName: z.string(),
  createdAt: isoTime,
  updatedAt: isoTime,
  studentId: z.string().nullable(),
  classId: z.string().nullable(),
});
export type LinkedReport = z.infer<typeof linkedReportSchema>;
export const reportAnswerSchema = z.object({ report: linkedReportSchema });
export const reportPageSchema = cursorPage(linkedReportSchema);

/** One enrolment the picker offers: a student may appear once per class. */
const enrolledStudentSchema = z.object({
  studentId: z.string(),
  name: z.string(),
  classId: z.string(),
  className: z.string(),
});
export type EnrolledStudent = z.infer<typeof enrolledStudentSchema>;
export const enrolledStudentListSchema = z.object({ items: z.array(enrolledStudentSchema) });

/** What a student reads about themselves: GET /api/me/reports. */
const myReportSchema = z.object({
  id: z.string(),
  studentName: z.string(),
  course: z.string(),
  marks: bounded("marks"),
  attendance: bounded("attendance"),
  assignments: bounded("assignments"),
  behavior: z.string(),
  feedback: z.string(),
  teacherName: z.string(),
  className: z.string().nullable(),
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type MyReport = z.infer<typeof myReportSchema>;
export const myReportsPageSchema = cursorPage(myReportSchema);
export type MyReportsPage = z.infer<typeof myReportsPageSchema>;

export const embedAnswerSchema = z.object({
  url: z.string(),
  /** ISO time; null for an external report (ANALYTICS_EMBED_URL), which has no token. */
  expiresAt: isoTime.nullable(),
  external: z.boolean(),
});
export type EmbedAnswer = z.infer<typeof embedAnswerSchema>;

/** Counts per bin; `from` is inclusive, `to` exclusive except for the last bin. */
const histogramBin = z.object({ from: z.number(), to: z.number(), count: z.number().int() });
export type HistogramBin = z.infer<typeof histogramBin>;
/** A histogram of other students: a bin of fewer than minGroupSize students has count null. */
const cohortBin = z.object({
  from: z.number(),
  to: z.number(),
  count: z.number().int().nullable(),
});
export type CohortBin = z.infer<typeof cohortBin>;
const cohort = z.object({
  /** Omitted when the whole group is smaller than minGroupSize. */
  bins: z.array(cohortBin).nullable(),
  /** Set when bins, or some of them, are withheld: says why. */
  note: z.string().nullable(),
});
export type CohortDistribution = z.infer<typeof cohort>;
const factorImportance = z.object({
  feature: z.string(),
  label: z.string(),
  importance: z.number(),
});
export type FactorImportance = z.infer<typeof factorImportance>;
const riskReason = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("marks"), course: z.string(), value: z.number() }),
  z.object({ kind: z.literal("attendance"), course: z.string(), value: z.number() }),
  z.object({ kind: z.literal("predicted"), value: z.number() }),
]);
export type RiskReason = z.infer<typeof riskReason>;
const atRiskStudent = z.object({ name: z.string(), reasons: z.array(riskReason) });
export type AtRiskStudent = z.infer<typeof atRiskStudent>;

export const staffReportSchema = z.object({
  scope: z.literal("staff"),
  generatedAt: isoTime,
  totals: z.object({ reports: z.number(), students: z.number(), predictions: z.number() }),
  /** Ten bins of 10 marks: 0-9, 10-19, …, 90-100. */
  marks: z.array(histogramBin),
  attendanceVsMarks: z.object({
    /** Reports grouped in cells of 5 by 5; each point sits at the mean of its cell. */
    points: z.array(z.object({ attendance: z.number(), marks: z.number(), count: z.number() })),
    /** Least-squares line marks = slope × attendance + intercept; null under two distinct points. */
    fit: z
      .object({ slope: z.number(), intercept: z.number(), r: z.number().nullable() })
      .nullable(),
  }),
  /** The most frequent courses first. */
  courses: z.array(z.object({ course: z.string(), averageMarks: z.number(), reports: z.number() })),
  /** Courses beyond the list, if any. */
  otherCourses: z.number(),
  behavior: z.array(z.object({ behavior: z.string(), count: z.number() })),
  /** Latest prediction of each student, by band. */
  bands: z.array(z.object({ band, count: z.number() })),
  atRisk: z.object({ total: z.number(), students: z.array(atRiskStudent) }),
  importance: z.object({
    modelVersion: z.string().nullable(),
    factors: z.array(factorImportance),
  }),
});
export type StaffReport = z.infer<typeof staffReportSchema>;

const predictionPoint = z.object({
  at: isoTime,
  /** The grades this prediction was made from (null when it was made without them). */
  g1: z.number().nullable(),
  g2: z.number().nullable(),
  score: z.number(),
  low: z.number(),
  high: z.number(),
});
export type PredictionPoint = z.infer<typeof predictionPoint>;

export const studentReportSchema = z.object({
  scope: z.literal("student"),
  generatedAt: isoTime,
  name: z.string(),
  predictions: z.array(predictionPoint),
  /** The latest prediction with the answers it was made from, or the latest saved answers. */
  latest: z.object({
    /** When that prediction was made (or those answers saved); null with neither. */
    at: isoTime.nullable(),
    g1: z.number().nullable(),
    g2: z.number().nullable(),
    prediction: z.number().nullable(),
    band: band.nullable(),
    message: z.string(),
  }),
  /** The cohort (students' latest questionnaires and predictions), in bins of 2 points. */
  cohort: z.object({ g1: cohort, g2: cohort, prediction: cohort }),
});
export type StudentReport = z.infer<typeof studentReportSchema>;

export const analyticsReportSchema = z.discriminatedUnion("scope", [
  staffReportSchema,
  studentReportSchema,
]);
export type AnalyticsReport = z.infer<typeof analyticsReportSchema>;
export type ReportScope = AnalyticsReport["scope"];

/** The health answer, one shape for 200 and 503. */
export const healthSchema = z.object({
  status: z.enum(["ok", "degraded"]),
  db: z.enum(["ok", "unavailable"]),
  dialect: z.string(),
  model: z.enum(["ok", "unavailable"]),
  modelVersion: z.string().nullable(),
});

/** Answers that only say what happened, in words for the screen. */
export const messageSchema = z.object({ message: z.string() });

/** 204: no body. */
export const noContentSchema = z.undefined().describe("No content");
