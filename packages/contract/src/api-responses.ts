import { z } from "zod";
import type { AnalyticsReport, EmbedAnswer, StaffReport, StudentReport } from "./analytics.ts";
import type { PredictionHistory, PredictionResult, StudentRecord } from "./prediction.ts";
import {
  notAsked,
  type QuestionKey,
  type Questionnaire,
  questionKeys,
  questions,
} from "./questionnaire.ts";
import type { EnrolledStudent, LinkedReport, MyReportsPage } from "./report-students.ts";
import { behaviors, reportLimits } from "./reports.ts";
import { inputSourceSchema } from "./school-record.ts";

// The answers of the routes whose shapes the contract held only as TypeScript interfaces, as
// zod schemas: the server's route schemas (and so the OpenAPI document) use them, and each is
// checked against its interface (`satisfies`), so the two cannot drift apart.

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
        return [question.key, question.unknownLabel !== undefined ? number.nullable() : number];
      }
      const choice = z.enum(values.map(String) as [string, ...string[]]);
      return [
        question.key,
        notAsked.has(question.key) || question.key === "subject" ? choice.nullable() : choice,
      ];
    }),
  ) as unknown as { [K in QuestionKey]: z.ZodType<Questionnaire[K]> },
);

const questionKey = z.enum(questionKeys as unknown as [QuestionKey, ...QuestionKey[]]);

export const studentRecordSchema = questionnaireAnswersSchema.extend({
  id: z.string(),
  createdAt: isoTime,
}) satisfies z.ZodType<StudentRecord>;
export const studentRecordListSchema = z.object({ items: z.array(studentRecordSchema) });

const modelSetup = z.enum(["A", "B", "C"]);
const sources = z.record(questionKey, inputSourceSchema);

export const predictionResultSchema = z.object({
  prediction: score,
  modelSetup,
  scoreIfSits: score,
  noFinalScoreRisk: z.number().min(0).max(1),
  combination: z.string(),
  raw: z.number(),
  band,
  message: z.string(),
  interval: z.object({ low: z.number(), high: z.number(), level: z.number().min(0).max(1) }),
  baseValue: z.number(),
  contributions: z.array(
    z.object({
      feature: questionKey,
      label: z.string(),
      value: z.union([z.string(), z.number(), z.null()]),
      effect: z.number(),
      actionable: z.boolean(),
    }),
  ),
  extrapolation: z.boolean(),
  extrapolationFeatures: z.array(questionKey),
  modelVersion: z.string(),
  inputs: questionnaireAnswersSchema,
  sources,
  classId: z.string().nullable(),
  id: z.string().nullable(),
  createdAt: isoTime.nullable(),
}) satisfies z.ZodType<PredictionResult>;

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
  sources,
  classId: z.string().nullable(),
  modelSetup: modelSetup.nullable(),
  scoreIfSits: score.nullable(),
  noFinalScoreRisk: z.number().min(0).max(1).nullable(),
});

export const predictionHistorySchema = z.object({
  items: z.array(predictionHistoryItemSchema),
  latest: predictionResultSchema.nullable(),
}) satisfies z.ZodType<PredictionHistory>;

/** GET /api/predictions (admins): stored predictions of every student, newest first. */
export const predictionRecordListSchema = z.object({
  items: z.array(predictionHistoryItemSchema.extend({ userId: z.string() })),
});

const bounded = (key: "marks" | "attendance" | "assignments") =>
  z.number().int().min(reportLimits[key].min).max(reportLimits[key].max);

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
}) satisfies z.ZodType<LinkedReport>;
export const reportAnswerSchema = z.object({ report: linkedReportSchema });
export const reportPageSchema = z.object({
  items: z.array(linkedReportSchema),
  nextCursor: z.string().nullable(),
});

export const enrolledStudentListSchema = z.object({
  items: z.array(
    z.object({
      studentId: z.string(),
      name: z.string(),
      classId: z.string(),
      className: z.string(),
    }) satisfies z.ZodType<EnrolledStudent>,
  ),
});

export const myReportsPageSchema = z.object({
  items: z.array(
    z.object({
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
    }),
  ),
  nextCursor: z.string().nullable(),
}) satisfies z.ZodType<MyReportsPage>;

export const embedAnswerSchema = z.object({
  url: z.string(),
  expiresAt: isoTime.nullable(),
  external: z.boolean(),
}) satisfies z.ZodType<EmbedAnswer>;

const histogramBin = z.object({ from: z.number(), to: z.number(), count: z.number().int() });
const cohort = z.object({
  bins: z
    .array(z.object({ from: z.number(), to: z.number(), count: z.number().int().nullable() }))
    .nullable(),
  note: z.string().nullable(),
});

export const staffReportSchema = z.object({
  scope: z.literal("staff"),
  generatedAt: isoTime,
  totals: z.object({ reports: z.number(), students: z.number(), predictions: z.number() }),
  marks: z.array(histogramBin),
  attendanceVsMarks: z.object({
    points: z.array(z.object({ attendance: z.number(), marks: z.number(), count: z.number() })),
    fit: z
      .object({ slope: z.number(), intercept: z.number(), r: z.number().nullable() })
      .nullable(),
  }),
  courses: z.array(z.object({ course: z.string(), averageMarks: z.number(), reports: z.number() })),
  otherCourses: z.number(),
  behavior: z.array(z.object({ behavior: z.string(), count: z.number() })),
  bands: z.array(z.object({ band, count: z.number() })),
  atRisk: z.object({
    total: z.number(),
    students: z.array(
      z.object({
        name: z.string(),
        reasons: z.array(
          z.discriminatedUnion("kind", [
            z.object({ kind: z.literal("marks"), course: z.string(), value: z.number() }),
            z.object({ kind: z.literal("attendance"), course: z.string(), value: z.number() }),
            z.object({ kind: z.literal("predicted"), value: z.number() }),
          ]),
        ),
      }),
    ),
  }),
  importance: z.object({
    modelVersion: z.string().nullable(),
    factors: z.array(z.object({ feature: z.string(), label: z.string(), importance: z.number() })),
  }),
}) satisfies z.ZodType<StaffReport>;

export const studentReportSchema = z.object({
  scope: z.literal("student"),
  generatedAt: isoTime,
  name: z.string(),
  predictions: z.array(
    z.object({
      at: isoTime,
      g1: z.number().nullable(),
      g2: z.number().nullable(),
      score: z.number(),
      low: z.number(),
      high: z.number(),
    }),
  ),
  latest: z.object({
    at: isoTime.nullable(),
    g1: z.number().nullable(),
    g2: z.number().nullable(),
    prediction: z.number().nullable(),
    band: band.nullable(),
    message: z.string(),
  }),
  cohort: z.object({ g1: cohort, g2: cohort, prediction: cohort }),
}) satisfies z.ZodType<StudentReport>;

export const analyticsReportSchema = z.discriminatedUnion("scope", [
  staffReportSchema,
  studentReportSchema,
]) satisfies z.ZodType<AnalyticsReport>;

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
