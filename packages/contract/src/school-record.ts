import { z } from "zod";
import { classHeadingSchema } from "./classes.ts";
import { keysOf, type QuestionKey, questionKeys } from "./questionnaire.ts";

// The school record (issue 29): what a class's teachers keep about each enrolled student, the
// term grades, absences and past failures the model reads, and the year's outcome (the final
// grade, or that the student did not sit it). For a class's prediction the record's values win
// over what the student typed, and every input says where it came from. Earlier values are
// kept: a correction is a new entry, never an overwrite.

/** The record's values, in the order of the gradebook's columns and the CSV file. */
export const recordFields = ["G1", "G2", "absences", "failures", "G3", "sat"] as const;
export type RecordField = (typeof recordFields)[number];

/** The record's values the model reads: a change to one makes the class's predictions stale. */
export const recordInputKeys = keysOf("G1", "G2", "absences", "failures");
export type RecordInputKey = (typeof recordInputKeys)[number];

export function isRecordInputKey(key: string): key is RecordInputKey {
  return (recordInputKeys as readonly string[]).includes(key);
}

/** The whole numbers each numeric value may take (the scales the model knows). */
export const recordRanges: Record<Exclude<RecordField, "sat">, { min: number; max: number }> = {
  G1: { min: 0, max: 20 },
  G2: { min: 0, max: 20 },
  absences: { min: 0, max: 100 },
  failures: { min: 0, max: 4 },
  G3: { min: 0, max: 20 },
};

/** How each value is named on the screen and in errors. */
export const recordFieldLabels: Record<RecordField, string> = {
  G1: "First period grade (G1)",
  G2: "Second period grade (G2)",
  absences: "Absences",
  failures: "Past class failures",
  G3: "Final grade (G3)",
  sat: "Sat the final",
};

/**
 * Where a model input came from: the class's school record, or the student's own answer. The
 * record wins where it holds a value.
 */
export const inputSources = ["school", "student"] as const;
export type InputSource = (typeof inputSources)[number];
export const inputSourceSchema = z.enum(inputSources);

/** Every input the student's own: a prediction no record contributed to. */
export const studentSources = Object.freeze(
  Object.fromEntries(questionKeys.map((k) => [k, "student"])) as Record<QuestionKey, InputSource>,
);

/**
 * A student's own answer differs from the record by this much or more: the risk list marks it
 * (without showing any other answer).
 */
export const recordDiffers = { grade: 2, absences: 5 } as const;

/** True when the student's own G1, G2 or absences differ from the record's by the margins above. */
export function differsFromRecord(
  own: Partial<Record<RecordInputKey, number | null>>,
  record: Partial<Record<RecordInputKey, number | null>>,
): boolean {
  const far = (key: RecordInputKey, margin: number) => {
    const a = own[key];
    const b = record[key];
    return (
      a !== null && a !== undefined && b !== null && b !== undefined && Math.abs(a - b) >= margin
    );
  };
  return (
    far("G1", recordDiffers.grade) ||
    far("G2", recordDiffers.grade) ||
    far("absences", recordDiffers.absences)
  );
}

export const recordMessages = {
  valueRange: (field: Exclude<RecordField, "sat">) =>
    `${recordFieldLabels[field]} is a whole number from ${recordRanges[field].min} to ${recordRanges[field].max}.`,
  satValue: "Sat the final is yes or no.",
  bodyOnly:
    "Send field (G1, G2, absences, failures, G3 or sat) and value (a number, true/false, or null to clear it).",
  notEnrolled: "This student is not in the class.",
  saved: "Saved.",
  g3WithoutSitting:
    "A student who did not sit the final has no final grade: clear G3 or mark them as sitting.",
  importHeader:
    "The first line must name the columns: email, then any of G1, G2, absences, failures, G3, sat.",
  importUnknownColumn: (name: string) => `Unknown column "${name}".`,
  importRepeatedColumn: (name: string) => `The column "${name}" appears twice.`,
  importNoValueColumn: "Name at least one value column besides email.",
  importEmpty: "The file has no rows after its header.",
  importTooManyRows: (max: number) => `The file has more than ${max} rows.`,
  importUnknownEmail: "No student with this email is in the class.",
  importDuplicateEmail: (line: number) => `The same email is on line ${line}.`,
  importColumns: (expected: number, found: number) =>
    `Expected ${expected} values, found ${found}.`,
  importRefused: "The file was not imported: fix the lines listed and try again.",
  importTooLarge: "The file is too large (at most 512 KB).",
  importNotUtf8: "Save the file as CSV UTF-8 and upload it again.",
  importNotCsv: "The file is not a CSV file.",
  preview: (changes: number) =>
    changes === 0
      ? "Nothing would change: the record already holds these values."
      : `${changes} values would change.`,
  imported: (changes: number) =>
    changes === 0
      ? "Nothing changed: the record already holds these values."
      : `${changes} values were saved.`,
} as const;

export const recordImportLimits = { rows: 5000, bytes: 512 * 1024 } as const;

/** "yes"/"no" as a spreadsheet writes them, for the CSV's sat column. */
export const satTexts = {
  // And as a Portuguese gradebook says it (issue 33).
  yes: ["yes", "y", "true", "1", "sat", "sim", "s"],
  no: ["no", "n", "false", "0", "did not sit", "não", "nao"],
} as const;

const numberValue = (field: Exclude<RecordField, "sat">) =>
  z
    .number({ error: recordMessages.valueRange(field) })
    .int({ error: recordMessages.valueRange(field) })
    .min(recordRanges[field].min, { error: recordMessages.valueRange(field) })
    .max(recordRanges[field].max, { error: recordMessages.valueRange(field) });

/** Checks one value for its field; the message names the field and its range. */
export const recordValueSchemas = {
  G1: numberValue("G1").nullable(),
  G2: numberValue("G2").nullable(),
  absences: numberValue("absences").nullable(),
  failures: numberValue("failures").nullable(),
  G3: numberValue("G3").nullable(),
  sat: z.boolean({ error: recordMessages.satValue }).nullable(),
} as const satisfies Record<RecordField, z.ZodType>;

/** PUT /api/classes/:id/record/:uid: one cell; null clears it (the cleared value is kept in the history). */
export const recordCellWriteSchema = z
  .strictObject(
    {
      field: z.enum(recordFields, { error: recordMessages.bodyOnly }),
      value: z.union([z.number(), z.boolean(), z.null()], { error: recordMessages.bodyOnly }),
    },
    { error: recordMessages.bodyOnly },
  )
  .superRefine((body, ctx) => {
    const checked = recordValueSchemas[body.field].safeParse(body.value);
    if (!checked.success) {
      ctx.addIssue({
        code: "custom",
        path: ["value"],
        message: checked.error.issues[0]?.message ?? recordMessages.bodyOnly,
      });
    }
  });
export type RecordCellWrite = z.infer<typeof recordCellWriteSchema>;

const person = z.object({ id: z.string().nullable(), name: z.string() });

/** One value of the record: what it is, who set it and when. */
export const recordCellSchema = z.object({
  value: z.union([z.number(), z.boolean()]).nullable(),
  setBy: person,
  setAt: z.string().describe("ISO 8601 time"),
});
export type RecordCell = z.infer<typeof recordCellSchema>;

const cells = z.object(
  Object.fromEntries(recordFields.map((f) => [f, recordCellSchema.nullable()])) as {
    [F in RecordField]: z.ZodNullable<typeof recordCellSchema>;
  },
);

/** One enrolled student's row of the gradebook; a value never set is null. */
export const recordRowSchema = z.object({
  studentId: z.string(),
  name: z.string(),
  email: z.string(),
  values: cells,
});
export type RecordRow = z.infer<typeof recordRowSchema>;

/** GET /api/classes/:id/record: every enrolled student, by name. */
export const classRecordSchema = z.object({
  class: classHeadingSchema,
  /** The caller is one of the class's teachers (an admin reads it and changes nothing). */
  canEdit: z.boolean(),
  items: z.array(recordRowSchema),
});
export type ClassRecord = z.infer<typeof classRecordSchema>;

/** The answer of a cell's change: the row as it now is. */
export const recordRowAnswerSchema = z.object({ row: recordRowSchema, message: z.string() });

/** GET /api/classes/:id/record/:uid/history: every entry, newest first (corrections visible). */
export const recordHistorySchema = z.object({
  items: z.array(
    z.object({
      field: z.enum(recordFields),
      value: z.union([z.number(), z.boolean()]).nullable(),
      setBy: person,
      setAt: z.string(),
      /** How it was entered: the gradebook, a CSV import, or the demo data. */
      via: z.enum(["grid", "import", "seed"]),
    }),
  ),
});
export type RecordHistory = z.infer<typeof recordHistorySchema>;

/** One value an import changes (or would, in the preview). */
export const recordChangeSchema = z.object({
  line: z.number().int(),
  studentId: z.string(),
  name: z.string(),
  email: z.string(),
  field: z.enum(recordFields),
  from: z.union([z.number(), z.boolean()]).nullable(),
  to: z.union([z.number(), z.boolean()]).nullable(),
});
export type RecordChange = z.infer<typeof recordChangeSchema>;

/**
 * POST /api/classes/:id/record/import (text/csv; `?dryRun=true` previews): the values that
 * change; values equal to the record's are left alone, so importing a file twice changes
 * nothing the second time. A bad line refuses the whole file: 400 with `fields` keyed
 * "line N" (the header is line 1).
 */
export const recordImportSchema = z.object({
  dryRun: z.boolean(),
  rows: z.number().int(),
  changes: z.array(recordChangeSchema),
  unchanged: z.number().int(),
  message: z.string(),
});
export type RecordImport = z.infer<typeof recordImportSchema>;

export const recordImportQuerySchema = z.object({
  dryRun: z
    .enum(["true", "false"], { error: "dryRun is true or false." })
    .optional()
    .describe("true: the preview, nothing is written"),
});

/** The key of a bad line in the 400 answer's `fields`: "line 3". */
export const recordLineKey = (line: number) => `line ${line}`;
