/**
 * A school's outcomes as training rows (issue 30). An outcomes file has the UCI files' format
 * (semicolon-separated, their column names, G3 last), a `subject` column or the subject in the
 * file name, and optionally an `id` column (a pseudonym: the same student's rows share it). One
 * row per student and stage, with the inputs as they were known then: G1 and G2 are empty when
 * not known yet, so a row's stage is the setup its known grades give.
 */
import {
  type Dataset,
  encodeValue,
  FEATURES,
  NUM_FEATURES,
  parseCsv,
  type RawRecord,
  SUBJECTS,
  type Subject,
  studentKey,
} from "./data.ts";
import { type Setup, setupFor } from "./hurdle.ts";

export interface OutcomeRow {
  /** Who the row is about (the file's `id`, else the UCI merge attributes). */
  key: string;
  subject: Subject;
  /** The setup the row's known grades give. */
  stage: Setup;
  /** The inputs as known then (G1/G2 null when not known yet). */
  input: Record<string, string | null>;
  /** The final grade; 0 when the student did not sit the final. */
  g3: number;
}

/** The subject of a file from its name (student-mat.csv, outcomes-por.csv). */
export function subjectOfFile(file: string): Subject | undefined {
  const m = /(?:^|[^a-z])(mat|por)(?:[^a-z]|$)/i.exec(file.replace(/^.*[\\/]/, ""));
  const s = m?.[1]?.toLowerCase();
  return SUBJECTS.includes(s as Subject) ? (s as Subject) : undefined;
}

const GRADES = new Set(["G1", "G2"]);

/** Reads an outcomes file; throws naming the row and column of a value that does not encode. */
export function readOutcomes(text: string, fileSubject?: Subject): OutcomeRow[] {
  return parseCsv(text).map((rec, i) => outcomeRow(rec, i, fileSubject));
}

function outcomeRow(rec: RawRecord, i: number, fileSubject?: Subject): OutcomeRow {
  const subject = (rec.subject || fileSubject) as Subject | undefined;
  if (!subject || !SUBJECTS.includes(subject)) {
    throw new Error(`row ${i + 1}: no subject (a subject column or mat/por in the file name)`);
  }
  const input: Record<string, string | null> = {};
  FEATURES.forEach((name, f) => {
    const given = name === "subject" ? subject : rec[name];
    if (given === undefined) throw new Error(`row ${i + 1}: missing column ${name}`);
    if (GRADES.has(name) && given === "") {
      input[name] = null;
      return;
    }
    const v = encodeValue(f, given);
    if (Number.isNaN(v) || v < 0) {
      throw new Error(`row ${i + 1}: bad value ${JSON.stringify(given)} for ${name}`);
    }
    input[name] = given;
  });
  if (input.G2 !== null && input.G1 === null) throw new Error(`row ${i + 1}: G2 without G1`);
  const g3 = Number(rec.G3);
  if (rec.G3 === undefined || !Number.isFinite(g3) || g3 < 0 || g3 > 20) {
    throw new Error(`row ${i + 1}: bad or missing G3`);
  }
  return {
    key: rec.id ? `id:${rec.id}` : studentKey(rec),
    subject,
    stage: setupFor(input.G1 !== null, input.G2 !== null),
    input,
    g3,
  };
}

const FINENESS: Record<Setup, number> = { A: 2, B: 1, C: 0 };

/**
 * The rows that train or test a setup: a row serves its own stage and every coarser one (its
 * grades are then left out); of one student's rows in one subject, the one of the setup's own
 * stage wins, else the coarsest that can serve (the inputs known earliest).
 */
export function rowsForSetup(rows: readonly OutcomeRow[], setup: Setup): OutcomeRow[] {
  const best = new Map<string, OutcomeRow>();
  for (const r of rows) {
    if (FINENESS[r.stage] < FINENESS[setup]) continue;
    const k = `${r.key}|${r.subject}`;
    const had = best.get(k);
    if (!had || FINENESS[r.stage] < FINENESS[had.stage]) best.set(k, r);
  }
  return [...best.values()].map((r) => ({ ...r, input: inputFor(r.input, setup), stage: setup }));
}

/** The inputs a setup reads: the grades it does not know left out. */
export function inputFor(input: Record<string, string | null>, setup: Setup) {
  return {
    ...input,
    G1: setup === "C" ? null : input.G1!,
    G2: setup === "A" ? input.G2! : null,
  };
}

/**
 * Rows to a dataset, each once with the weight `weight` (a whole number): the learner, the
 * folds, the calibration and the intervals count a row of weight w as w copies of it (as the
 * rows repeated w times under the same key would be). Unknown grades encode as NaN; the setup
 * they are for never reads them.
 */
export function toWeightedDataset(rows: readonly OutcomeRow[], weight = 1): Dataset {
  if (!(Number.isInteger(weight) && weight >= 1))
    throw new Error("a weight is a whole number >= 1");
  const n = rows.length;
  const x = new Float64Array(n * NUM_FEATURES);
  const y = new Float64Array(n);
  const keys: string[] = [];
  rows.forEach((r, i) => {
    FEATURES.forEach((name, f) => {
      x[i * NUM_FEATURES + f] = encodeValue(f, r.input[name]);
    });
    y[i] = r.g3;
    keys.push(`school:${r.key}`);
  });
  return { x, y, n, keys, w: new Float64Array(n).fill(weight) };
}

/** Outcome rows counted per subject (distinct students). */
export function outcomesPerSubject(rows: readonly OutcomeRow[]): Record<Subject, number> {
  const seen = Object.fromEntries(SUBJECTS.map((s) => [s, new Set<string>()])) as Record<
    Subject,
    Set<string>
  >;
  for (const r of rows) seen[r.subject].add(r.key);
  return Object.fromEntries(SUBJECTS.map((s) => [s, seen[s].size])) as Record<Subject, number>;
}

/** The outcomes file's text for rows (the export's format): UCI columns, id first, G3 last. */
export function outcomesCsv(
  rows: readonly { id: string; input: Record<string, string | number | null>; g3: number }[],
): string {
  const columns = ["id", ...FEATURES, "G3"];
  const cell = (v: string | number | null | undefined) =>
    v === null || v === undefined ? "" : typeof v === "number" ? String(v) : `"${v}"`;
  const lines = rows.map((r) =>
    [cell(r.id), ...FEATURES.map((f) => cell(r.input[f])), cell(r.g3)].join(";"),
  );
  return `${columns.join(";")}\n${lines.join("\n")}${lines.length > 0 ? "\n" : ""}`;
}
