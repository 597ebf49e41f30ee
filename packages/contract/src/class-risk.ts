import { z } from "zod";
import { modelSetupSchema } from "./api-responses.ts";
import { classHeadingSchema } from "./classes.ts";
import { namedSchema } from "./named.ts";
import { highNoFinalScoreRisk, type ModelSetup } from "./prediction.ts";
import { keysOf, type QuestionKey, questionByKey, questionKeys } from "./questionnaire.ts";
import {
  type InputSource,
  inputSourceSchema,
  type RecordInputKey,
  recordDiffers,
  recordInputKeys,
} from "./school-record.ts";
import { formatScore } from "./score.ts";
import { isPlainText, plainTextMessage } from "./text.ts";

// The class risk list (issue 20): which enrolled students need help now, and why, for the
// class's teachers and admins. The privacy rule lives here, once: a teacher sees reasons drawn
// only from the school record; the student's other answers (family, going out, relationships,
// health, ...) are summed into one "Other answers" reason unless the student shares their full
// explanation. Intervention notes are the class's teachers' alone: an admin reads the list
// without them. The screen and the CSV export show the same columns, built by `riskCells`.

/** Inputs a school already holds about a student: the only ones named to a teacher. */
export const schoolRecordKeys = keysOf(
  "G1",
  "G2",
  "failures",
  "absences",
  "studytime",
  "schoolsup",
);
export type SchoolRecordKey = (typeof schoolRecordKeys)[number];

export function isSchoolRecordKey(key: string): key is SchoolRecordKey {
  return (schoolRecordKeys as readonly string[]).includes(key);
}

/** The feature name of the reason that sums every answer outside the school record. */
export const otherAnswersFeature = "other";
export const otherAnswersLabel = "Other answers";
/** Reasons shown per student. */
export const riskReasonCount = 3;

/**
 * The pass mark of the Portuguese 0-20 scale the model predicts on (the data set's own
 * pass/fail split): a predicted final under it puts a student on the at-risk filter.
 */
export const passMark = 10;

/** At risk: a predicted final under the pass mark, or a high risk of not sitting the final. */
export function isAtRisk(prediction: number, noFinalScoreRisk: number | null): boolean {
  return (
    Number(formatScore(prediction)) < passMark ||
    (noFinalScoreRisk !== null && noFinalScoreRisk >= highNoFinalScoreRisk)
  );
}

export const riskReasonSchema = z.object({
  /** A school-record input, or any input when the student shares, or "other". */
  feature: z.union([z.enum(questionKeys), z.literal(otherAnswersFeature)]),
  label: z.string(),
  /** The answer (null for "other", or a grade not known yet). */
  value: z.union([z.string(), z.number(), z.null()]),
  /** Points this reason moved the prediction (+ up, - down). */
  effect: z.number(),
});
export type RiskReason = z.infer<typeof riskReasonSchema>;

export interface Contribution {
  feature: QuestionKey;
  label: string;
  value: string | number | null;
  effect: number;
}

/**
 * The reasons a teacher may see, largest effect first: school-record inputs by name, and every
 * other answer summed into "Other answers" (none of them named, not even by a zero effect).
 * With the student's consent (`shared`), every input by name.
 */
export function teacherReasons(
  contributions: readonly Contribution[],
  shared: boolean,
): RiskReason[] {
  const strip = ({ feature, label, value, effect }: Contribution): RiskReason => ({
    feature,
    label,
    value,
    effect,
  });
  const byEffect = (a: RiskReason, b: RiskReason) => Math.abs(b.effect) - Math.abs(a.effect);
  if (shared) return contributions.map(strip).sort(byEffect);
  const named = contributions.filter((c) => isSchoolRecordKey(c.feature)).map(strip);
  const other = contributions
    .filter((c) => !isSchoolRecordKey(c.feature))
    .reduce((sum, c) => sum + c.effect, 0);
  const summed: RiskReason = {
    feature: otherAnswersFeature,
    label: otherAnswersLabel,
    value: null,
    effect: other,
  };
  return [...named, summed].sort(byEffect);
}

/** One reason as the list and the CSV write it: "Second period grade (G2) 8: -2.1". */
export function reasonText(reason: RiskReason): string {
  const effect = `${reason.effect >= 0 ? "+" : "-"}${Math.abs(reason.effect).toFixed(1)}`;
  if (reason.feature === otherAnswersFeature || reason.value === null) {
    return `${reason.label}: ${effect}`;
  }
  const question = questionByKey[reason.feature as QuestionKey];
  const option = question?.options.find((o) => o.value === reason.value);
  const shown = option && option.label !== String(reason.value) ? option.label : reason.value;
  return `${reason.label} ${shown}: ${effect}`;
}

export const interventionNoteSchema = z.object({
  id: z.string(),
  studentId: z.string(),
  /** What was done. */
  action: z.string(),
  /** When it was done (YYYY-MM-DD). */
  doneOn: z.string(),
  /** When to look again (YYYY-MM-DD), or null. */
  followUpOn: z.string().nullable(),
  author: z.object({ id: z.string().nullable(), name: z.string() }),
  createdAt: z.string(),
});
export type InterventionNote = z.infer<typeof interventionNoteSchema>;

export const riskItemSchema = z.object({
  studentId: z.string(),
  name: z.string(),
  email: z.string(),
  /** False: the student has not answered the questionnaire (no prediction). */
  answered: z.boolean(),
  answeredAt: z.string().nullable(),
  prediction: z.number().nullable(),
  interval: z.object({ low: z.number(), high: z.number() }).nullable(),
  band: z.enum(["improve", "good", "congratulations"]).nullable(),
  /** Null for predictions made before the model answered in two parts. */
  noFinalScoreRisk: z.number().nullable(),
  scoreIfSits: z.number().nullable(),
  modelSetup: modelSetupSchema.nullable(),
  atRisk: z.boolean(),
  /** The student shares their full explanation with their teachers. */
  shared: z.boolean(),
  /**
   * The top reasons under the privacy rule (all inputs when shared). Null when the prediction
   * was made by an earlier model (its reasons are given again once the student answers again).
   */
  reasons: z.array(riskReasonSchema).nullable(),
  /** Every reason, only when the student shares their full explanation. */
  explanation: z.array(riskReasonSchema).nullable(),
  /** Intervention notes, newest first; null for anyone but the class's teachers. */
  notes: z.array(interventionNoteSchema).nullable(),
  /**
   * The student's "this prediction is wrong because ..." about the prediction shown (issue 31):
   * for the class's teachers only (null for an admin, and when none was said).
   */
  contest: z.object({ reason: z.string(), createdAt: z.string() }).nullable(),
  /**
   * The school-record inputs of the prediction (G1, G2, absences, failures), each with its
   * source: the class's record where it holds the value, the student's answer otherwise. Null
   * without a prediction.
   */
  inputs: z
    .object(
      Object.fromEntries(
        recordInputKeys.map((k) => [
          k,
          z.object({ value: z.number().nullable(), source: inputSourceSchema }),
        ]),
      ) as {
        [K in (typeof recordInputKeys)[number]]: z.ZodObject<{
          value: z.ZodNullable<z.ZodNumber>;
          source: typeof inputSourceSchema;
        }>;
      },
    )
    .nullable(),
  /**
   * The student's own answers differ from the record (G1 or G2 by 2 or more, absences by 5 or
   * more): nothing else of their answers is shown.
   */
  differs: z.boolean(),
  /** When the shown prediction was made (a change of the record or the model makes a new one). */
  predictedAt: z.string().nullable(),
  /**
   * The record or the model changed since the newest prediction and a new one is being made:
   * no figure is shown until it is (never one from values older than the record).
   */
  updating: z.boolean(),
});
export type RiskItem = z.infer<typeof riskItemSchema>;

/** GET /api/classes/:id/risk: at-risk students first, then by predicted final, lowest first;
 * students who have not answered last. */
export const classRiskSchema = z.object({
  class: classHeadingSchema,
  counts: z.object({
    students: z.number().int(),
    answered: z.number().int(),
    atRisk: z.number().int(),
  }),
  /** The caller is one of the class's teachers: the items carry notes, the table their columns. */
  withNotes: z.boolean(),
  items: z.array(riskItemSchema),
});
export type ClassRisk = z.infer<typeof classRiskSchema>;

/**
 * Orders the list: at risk first, then lowest predicted final, then those whose prediction is
 * being made again, then not answered, by name.
 */
export function compareRisk(a: RiskItem, b: RiskItem): number {
  if (a.answered !== b.answered) return a.answered ? -1 : 1;
  // A prediction being made again has no figure to sort by: after those with one, by name.
  if (a.updating !== b.updating) return a.updating ? 1 : -1;
  if (a.atRisk !== b.atRisk) return a.atRisk ? -1 : 1;
  const byScore = (a.prediction ?? 0) - (b.prediction ?? 0);
  if (byScore !== 0) return byScore;
  const byRisk = (b.noFinalScoreRisk ?? 0) - (a.noFinalScoreRisk ?? 0);
  if (byRisk !== 0) return byRisk;
  return a.name.localeCompare(b.name) || a.studentId.localeCompare(b.studentId);
}

/**
 * The model of a prediction as a teacher reads it (issue 28): when in the term it was made, by
 * the term grades known then. On the screen and in the CSV.
 */
export const modelSetupLabels: Record<ModelSetup, string> = {
  A: "Late term, both term grades known",
  B: "Early term, first grade known",
  C: "Start of term, no grade known yet",
};

export const riskMessages = {
  notAnswered: "Not answered yet",
  /** Beside "—" in a column the prediction predates (risk of not sitting, model). */
  beforeMeasure: "made before this measure existed",
  reasonsEarlierModel: "Made by an earlier model: reasons come when the student answers again.",
  noteActionRequired: "Say what was done.",
  noteActionLong: "Use at most 1000 characters.",
  dateInvalid: "Enter a date as YYYY-MM-DD.",
  followUpBeforeDone: "The follow-up date cannot be before the date it was done.",
  noteOnly: "Only action, doneOn and followUpOn can be sent.",
  noteAdded: "The note was added.",
  sharingOnly: "Send shareExplanation: true or false.",
  sharingOn: "Your teachers now see your full explanation.",
  sharingNewTeachers: "Some of your teachers do not see it yet: share again to include them.",
  sharingOff: "Your teachers now see only the reasons from your school record.",
  notEnrolled: "This student is not in the class.",
  /** Instead of a figure while a new prediction is made from a changed record or model. */
  updating: "Updating…",
  differs: "Differs from the record",
  differsExplained: `The student's own answers differ from the school record (a term grade by ${recordDiffers.grade} or more, or absences by ${recordDiffers.absences} or more): the prediction uses the record's values.`,
} as const;

/** The record inputs' names in the list: "G1 8 (school)". */
export const riskInputLabels: Record<RecordInputKey, string> = {
  G1: "G1",
  G2: "G2",
  absences: "Absences",
  failures: "Failures",
};

/** One input as the list and the CSV write it: "G1 8 (school)", "G2 not known (student)". */
export function riskInputText(key: RecordInputKey, value: number | null, source: InputSource) {
  return `${riskInputLabels[key]} ${value === null ? "not known" : value} (${source})`;
}

export const noteLimits = { action: 1000 } as const;

const isoDate = /^\d{4}-\d{2}-\d{2}$/;
const isRealDate = (text: string) => {
  if (!isoDate.test(text)) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
};
const dateSchema = z
  .string({ error: riskMessages.dateInvalid })
  .refine(isRealDate, { error: riskMessages.dateInvalid });

/** POST /api/classes/:id/students/:uid/notes */
export const noteCreateSchema = z
  .strictObject(
    {
      action: z
        .string({ error: riskMessages.noteActionRequired })
        .trim()
        .min(1, { error: riskMessages.noteActionRequired })
        .max(noteLimits.action, { error: riskMessages.noteActionLong })
        .refine(isPlainText, { error: plainTextMessage })
        .transform((text) => text.normalize("NFC")),
      doneOn: dateSchema,
      followUpOn: dateSchema.nullable().optional(),
    },
    { error: riskMessages.noteOnly },
  )
  .refine((v) => !v.followUpOn || v.followUpOn >= v.doneOn, {
    error: riskMessages.followUpBeforeDone,
    path: ["followUpOn"],
  });
export type NoteCreate = z.input<typeof noteCreateSchema>;

export const noteAnswerSchema = z.object({ note: interventionNoteSchema });

/** GET and PATCH /api/me/sharing: whether the student shares their full explanation. */
export const sharingSchema = z.object({
  shareExplanation: z.boolean(),
  /** When it was last turned on or off; null if never. */
  changedAt: z.string().nullable(),
  /**
   * Issue 26: sharing applies to the teachers it was given to (the teachers of the student's
   * classes at the time). Those teachers, by name.
   */
  sharedWith: z.array(namedSchema),
  /** Teachers of the student's classes who do not see it (new since): sharing again adds them. */
  notSharedWith: z.array(namedSchema),
});
export type Sharing = z.infer<typeof sharingSchema>;

export const sharingPatchSchema = z.strictObject(
  { shareExplanation: z.boolean({ error: riskMessages.sharingOnly }) },
  { error: riskMessages.sharingOnly },
);

/** Path parameters of the class routes. */
export const classIdParamsSchema = z.object({ id: z.string() });
export const classStudentParamsSchema = z.object({ id: z.string(), uid: z.string() });

/** The columns of the notes, shown to the class's teachers only. */
export const noteColumns = ["Latest note", "Follow-up"] as const;

/** The columns of the list, on the screen and in the CSV export, in this order. */
export const riskColumns = [
  "Student",
  "At risk",
  "Predicted final",
  "80% interval",
  "Record inputs",
  "Risk of not sitting the final",
  "Model",
  "Answered on",
  "Predicted on",
  "Reasons",
  ...noteColumns,
] as const;
export type RiskColumn = (typeof riskColumns)[number];

/** The columns a caller sees: the notes' only when they are one of the class's teachers. */
export function riskColumnsFor(withNotes: boolean): readonly RiskColumn[] {
  return withNotes ? riskColumns : riskColumns.slice(0, riskColumns.length - noteColumns.length);
}

const percent = (p: number) => `${Math.round(p * 100)}%`;

/**
 * The words and formats a row's cells are written with. English (below) is the contract's own
 * text; another language builds them from its catalogue (risk-words.ts), for the screen and for
 * the CSV export alike.
 */
export interface RiskWords {
  yes: string;
  no: string;
  notAnswered: string;
  updating: string;
  reasonsEarlierModel: string;
  differs: string;
  input: (key: RecordInputKey, value: number | null, source: InputSource) => string;
  reason: (reason: RiskReason) => string;
  model: (setup: ModelSetup) => string;
  score: (value: number) => string;
  percent: (share: number) => string;
  /** A day given as YYYY-MM-DD. */
  day: (day: string) => string;
}

export const englishRiskWords: RiskWords = {
  yes: "Yes",
  no: "No",
  notAnswered: riskMessages.notAnswered,
  updating: riskMessages.updating,
  reasonsEarlierModel: riskMessages.reasonsEarlierModel,
  differs: riskMessages.differs,
  input: riskInputText,
  reason: reasonText,
  model: (setup) => modelSetupLabels[setup],
  score: formatScore,
  percent,
  day: (day) => day,
};

/**
 * One row's cells as text, in the order of `riskColumnsFor` (the notes' when it has them). A
 * prediction being made again shows no figure (never one from values older than the record).
 */
export function riskCells(item: RiskItem, words: RiskWords = englishRiskWords): string[] {
  const figure = !item.updating;
  const inputs = item.inputs
    ? recordInputKeys.map((k) => words.input(k, item.inputs![k].value, item.inputs![k].source))
    : [];
  if (item.differs) inputs.push(words.differs);
  const cells = [
    item.name,
    item.answered && !item.updating ? (item.atRisk ? words.yes : words.no) : "",
    item.updating
      ? words.updating
      : item.prediction === null
        ? words.notAnswered
        : words.score(item.prediction),
    figure && item.interval
      ? `${words.score(item.interval.low)}-${words.score(item.interval.high)}`
      : "",
    inputs.join("; "),
    figure && item.noFinalScoreRisk !== null ? words.percent(item.noFinalScoreRisk) : "",
    figure && item.modelSetup ? words.model(item.modelSetup) : "",
    item.answeredAt ? words.day(item.answeredAt.slice(0, 10)) : "",
    figure && item.predictedAt ? words.day(item.predictedAt.slice(0, 10)) : "",
    !figure
      ? ""
      : item.reasons === null
        ? item.answered
          ? words.reasonsEarlierModel
          : ""
        : item.reasons.map(words.reason).join("; "),
  ];
  if (item.notes === null) return cells;
  const note = item.notes[0];
  return [
    ...cells,
    note ? `${words.day(note.doneOn)}: ${note.action}` : "",
    note?.followUpOn ? words.day(note.followUpOn) : "",
  ];
}
