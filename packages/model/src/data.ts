import {
  type QuestionKey,
  questionByKey,
  questionKeys,
  type Subject,
  subjects,
} from "@gradecast/contract/questionnaire";

/**
 * The 31 inputs (the 30 questionnaire answers of the UCI files and the subject), their
 * encoding, and a reader for the UCI Student Performance CSV files
 * (`;`-separated, unquoted header, double-quoted strings, quoted G1/G2). The inputs, their
 * codes and ranges are the contract's questionnaire; this file only says how they encode.
 */

/** In the UCI files' column order, then the subject (the file a row comes from). */
export const FEATURES = questionKeys;

export type FeatureName = QuestionKey;
export const NUM_FEATURES = FEATURES.length;

/**
 * A choice's codes in encoding order (index = encoded value): the catalogue's order, except
 * that a yes/no answer encodes no < yes, the order the monotone constraints below read.
 */
function encodingOrder(key: FeatureName): readonly string[] | null {
  const question = questionByKey[key];
  if (question.kind !== "choice") return null;
  const codes = question.options.map((o) => String(o.value));
  const yesNo = codes.length === 2 && codes.includes("yes") && codes.includes("no");
  return yesNo ? ["no", "yes"] : codes;
}

/** Categorical features and their codes (index = encoded value). Others are numeric. */
export const CATEGORIES: Readonly<Partial<Record<FeatureName, readonly string[]>>> =
  Object.fromEntries(
    FEATURES.flatMap((f) => {
      const codes = encodingOrder(f);
      return codes ? [[f, codes]] : [];
    }),
  );

/** The subjects, by the name the UCI files use (student-mat.csv, student-por.csv). */
export const SUBJECTS = subjects;
export type { Subject };

/** Per feature index: the category list, or null when numeric. */
export const FEATURE_CATEGORIES: readonly (readonly string[] | null)[] = FEATURES.map(
  (f) => CATEGORIES[f] ?? null,
);

/**
 * Monotone constraints of the score if the student sits the final: +1 it never decreases in
 * the feature, -1 it never increases. These are the directions a teacher would defend; the
 * what-if panel offers only constrained inputs (the rest may follow the data either way, so a
 * suggestion built on them could be harmful). For yes/no inputs the order is no < yes.
 * Not constrained, hence not offered: free time, paid classes, activities, internet, romantic
 * relationship (the data's associations there have no direction a teacher would stand by).
 * The risk of not sitting is constrained the opposite way (riskMonotone), so the headline
 * (1 - risk) * score moves the same way as the score.
 */
export const MONOTONE: Readonly<Partial<Record<FeatureName, 1 | -1>>> = {
  G1: 1,
  G2: 1,
  failures: -1,
  absences: -1,
  studytime: 1,
  higher: 1,
  goout: -1,
  schoolsup: 1,
};

/**
 * The 13 attributes UCI's student-merge.R uses to match a student across the two files: the
 * first eleven inputs (school to reason), nursery and internet.
 */
export const MERGE_KEYS: readonly FeatureName[] = [
  ...questionKeys.slice(0, questionKeys.indexOf("reason") + 1),
  "nursery",
  "internet",
];

export interface RawRecord {
  [column: string]: string;
}

export interface Dataset {
  /** Row-major encoded inputs: x[i * NUM_FEATURES + f]. */
  x: Float64Array;
  /** Target G3 (NaN when the file has no G3 column). */
  y: Float64Array;
  n: number;
  /** Student key built from MERGE_KEYS, to match the same student across subjects. */
  keys: string[];
  /**
   * Row weights (whole numbers; none: every row 1). A row of weight w stands for w copies of
   * itself: the learner, the folds, the calibration and the intervals count it w times.
   */
  w?: Float64Array;
}

function unquote(field: string): string {
  const t = field.trim();
  if (t.length >= 2 && t.startsWith('"') && t.endsWith('"')) {
    return t.slice(1, -1).replace(/""/g, '"');
  }
  return t;
}

/** Split one `;`-separated line, honouring double quotes. */
function splitLine(line: string): string[] {
  const out: string[] = [];
  let cur = "";
  let inQuotes = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === '"') {
      inQuotes = !inQuotes;
      cur += ch;
    } else if (ch === ";" && !inQuotes) {
      out.push(cur);
      cur = "";
    } else {
      cur += ch;
    }
  }
  out.push(cur);
  return out.map(unquote);
}

/** Parse CSV text into records keyed by the header's column names (quotes stripped). */
export function parseCsv(text: string): RawRecord[] {
  const lines = text
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .filter((l) => l.trim() !== "");
  if (lines.length === 0) return [];
  const header = splitLine(lines[0]!);
  const records: RawRecord[] = [];
  for (let li = 1; li < lines.length; li++) {
    const cells = splitLine(lines[li]!);
    if (cells.length !== header.length) {
      throw new Error(`line ${li + 1}: expected ${header.length} fields, got ${cells.length}`);
    }
    const rec: RawRecord = {};
    for (let c = 0; c < header.length; c++) rec[header[c]!] = cells[c]!;
    records.push(rec);
  }
  return records;
}

/**
 * Encode one input value. Categorical: the category's index, -1 when unknown.
 * Numeric: the number (NaN when not a finite number).
 */
export function encodeValue(
  featureIndex: number,
  value: string | number | null | undefined,
): number {
  const cats = FEATURE_CATEGORIES[featureIndex];
  if (cats) return value === undefined || value === null ? -1 : cats.indexOf(String(value));
  if (value === undefined || value === null || value === "") return Number.NaN;
  const v = typeof value === "number" ? value : Number(value);
  return Number.isFinite(v) ? v : Number.NaN;
}

/** Encode a record (strings or numbers keyed by feature name) into `out` at `offset`. */
export function encodeRecord(
  rec: Readonly<Record<string, string | number | undefined>>,
  out: Float64Array,
  offset = 0,
): void {
  for (let f = 0; f < NUM_FEATURES; f++) out[offset + f] = encodeValue(f, rec[FEATURES[f]!]);
}

export function studentKey(rec: Readonly<Record<string, string | number | undefined>>): string {
  return MERGE_KEYS.map((k) => String(rec[k])).join("|");
}

/**
 * Records to a dataset; throws on a missing input column or a value that does not encode.
 * `subject` fills the subject of rows that have no subject column (the UCI files have none).
 */
export function toDataset(
  records: readonly RawRecord[],
  requireTarget = true,
  subject?: Subject,
): Dataset {
  const n = records.length;
  const x = new Float64Array(n * NUM_FEATURES);
  const y = new Float64Array(n);
  const keys: string[] = [];
  records.forEach((rec, i) => {
    for (let f = 0; f < NUM_FEATURES; f++) {
      const name = FEATURES[f]!;
      const given = name === "subject" ? (rec.subject ?? subject) : rec[name];
      if (given === undefined) throw new Error(`row ${i + 1}: missing column ${name}`);
      const v = encodeValue(f, given);
      if (Number.isNaN(v) || v < 0) {
        throw new Error(`row ${i + 1}: bad value ${JSON.stringify(given)} for ${name}`);
      }
      x[i * NUM_FEATURES + f] = v;
    }
    const g3 = rec.G3;
    if (g3 === undefined) {
      if (requireTarget) throw new Error(`row ${i + 1}: missing column G3`);
      y[i] = Number.NaN;
    } else {
      y[i] = Number(g3);
      if (!Number.isFinite(y[i]!)) throw new Error(`row ${i + 1}: bad G3 ${JSON.stringify(g3)}`);
    }
    keys.push(studentKey(rec));
  });
  return { x, y, n, keys };
}

/** Concatenate datasets (rows in order). */
export function concatDatasets(parts: readonly Dataset[]): Dataset {
  const n = parts.reduce((s, p) => s + p.n, 0);
  const x = new Float64Array(n * NUM_FEATURES);
  const y = new Float64Array(n);
  const keys: string[] = [];
  const w = parts.some((p) => p.w) ? new Float64Array(n).fill(1) : undefined;
  let off = 0;
  for (const p of parts) {
    x.set(p.x, off * NUM_FEATURES);
    y.set(p.y, off);
    if (w && p.w) w.set(p.w, off);
    keys.push(...p.keys);
    off += p.n;
  }
  return w ? { x, y, n, keys, w } : { x, y, n, keys };
}

/** A subset of rows of a dataset. */
export function subset(d: Dataset, rows: ArrayLike<number>): Dataset {
  const n = rows.length;
  const x = new Float64Array(n * NUM_FEATURES);
  const y = new Float64Array(n);
  const keys: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = rows[i]!;
    x.set(d.x.subarray(r * NUM_FEATURES, (r + 1) * NUM_FEATURES), i * NUM_FEATURES);
    y[i] = d.y[r]!;
    keys.push(d.keys[r]!);
  }
  if (!d.w) return { x, y, n, keys };
  const w = d.w;
  return { x, y, n, keys, w: Float64Array.from({ length: n }, (_, i) => w[rows[i]!]!) };
}
