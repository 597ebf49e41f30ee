import { z } from "zod";
import { type Subject, subjectLabels, subjects } from "./subjects.ts";

// The student record: 30 questions and the subject, each a select from a fixed set; the
// school among them is the deployment's, never asked (issue 28: `askedQuestions`). This
// catalogue is the one source for the form, the server's validation, the database ranges and
// the labels of the model's explanations. G1 and G2 may be "not known yet" (null) early in the
// term; the model then answers from what is known (setups B and C).

export interface Option {
  value: string | number;
  label: string;
}

/**
 * How an answer reads on every screen: its label alone, with a capital first letter ("Higher
 * education", "Three or fewer", "At home", "Yes", "3"). Never the data set's code in front of it
 * ("at_home — At home"), which meant nothing to a student (issue 28).
 */
export function optionText(option: Option): string {
  return option.label.charAt(0).toUpperCase() + option.label.slice(1);
}

export interface Question {
  key: QuestionKey;
  label: string;
  help: string;
  section: SectionKey;
  kind: "number" | "choice";
  options: readonly Option[];
  /** Whether a student can change it (the what-if panel offers these). */
  actionable: boolean;
  /** When set, the question may be left unknown (null), offered under this label. */
  unknownLabel?: string;
}

/** How a grade not known yet reads in the form and in the explanations. */
export const notKnownYetLabel = "Not known yet";

/** How an optional question left out reads in the form (issue 31: "Only what is needed"). */
export const preferNotToSayLabel = "Prefer not to say";
/** How such an answer reads on the prediction screen and in the explanations. */
export const notAnsweredLabel = "Not answered";

export const sections = [
  { key: "school", title: "School and family" },
  { key: "study", title: "Study" },
  { key: "lifestyle", title: "Lifestyle" },
  { key: "grades", title: "Grades" },
] as const;
export type SectionKey = (typeof sections)[number]["key"];

export const questionKeys = [
  "school",
  "sex",
  "age",
  "address",
  "famsize",
  "Pstatus",
  "Medu",
  "Fedu",
  "Mjob",
  "Fjob",
  "reason",
  "guardian",
  "traveltime",
  "studytime",
  "failures",
  "schoolsup",
  "famsup",
  "paid",
  "activities",
  "nursery",
  "higher",
  "internet",
  "romantic",
  "famrel",
  "freetime",
  "goout",
  "health",
  "absences",
  "G1",
  "G2",
  "subject",
] as const;
export type QuestionKey = (typeof questionKeys)[number];

/** A named list of some of the questions, each checked to be one: `keysOf("G1", "G2")`. */
export const keysOf = <const K extends readonly QuestionKey[]>(...keys: K): K => keys;

const range = (from: number, to: number, label?: (n: number) => string): Option[] =>
  Array.from({ length: to - from + 1 }, (_, i) => ({
    value: from + i,
    label: label ? label(from + i) : String(from + i),
  }));
const labelled = (labels: Record<number, string>): Option[] =>
  Object.entries(labels).map(([v, label]) => ({ value: Number(v), label }));
/** Options whose codes are text, in the order given: `{ GP: "Gabriel Pereira", … }`. */
const choices = (labels: Record<string, string>): Option[] =>
  Object.entries(labels).map(([value, label]) => ({ value, label }));
const yesNo = choices({ yes: "Yes", no: "No" });
const education = labelled({
  0: "none",
  1: "primary (4th grade)",
  2: "5th to 9th grade",
  3: "secondary",
  4: "higher education",
});
const job = choices({
  teacher: "Teacher",
  health: "Health care",
  services: "Civil services",
  at_home: "At home",
  other: "Other",
});
const scale = (low: string, high: string) =>
  labelled({ 1: `${low}`, 2: "low", 3: "medium", 4: "high", 5: `${high}` });
const grade = range(0, 20);
const subject = subjects.map((value) => ({ value, label: subjectLabels[value] }));

/** One question a row: key, section, label, help, options, whether a student can change it. */
type Row = [QuestionKey, SectionKey, string, string, readonly Option[], boolean];

// The catalogue is data: one row a question, in the order the form shows them.
// biome-ignore format: a table reads best one row a line
const rows: readonly Row[] = [
  ["school", "school", "School", "The school you attend.", choices({ GP: "Gabriel Pereira", MS: "Mousinho da Silveira" }), false],
  ["sex", "school", "Sex", "As recorded by the school.", choices({ F: "Female", M: "Male" }), false],
  ["age", "school", "Age", "Your age in years.", range(10, 25), false],
  ["address", "school", "Home address", "Whether you live in a town or in the countryside.", choices({ U: "Urban", R: "Rural" }), false],
  ["famsize", "school", "Family size", "How many people live in your family.", choices({ LE3: "three or fewer", GT3: "more than three" }), false],
  ["Pstatus", "school", "Parents living together", "Whether your parents live together or apart.", choices({ T: "Together", A: "Apart" }), false],
  ["Medu", "school", "Mother's education", "The highest level of education your mother completed.", education, false],
  ["Fedu", "school", "Father's education", "The highest level of education your father completed.", education, false],
  ["Mjob", "school", "Mother's job", "The kind of work your mother does.", job, false],
  ["Fjob", "school", "Father's job", "The kind of work your father does.", job, false],
  ["reason", "school", "Reason for choosing this school", "The main reason you chose your school.", choices({ home: "Close to home", reputation: "School reputation", course: "Course preference", other: "Other" }), false],
  ["guardian", "school", "Guardian", "Who is legally responsible for you.", choices({ mother: "Mother", father: "Father", other: "Other" }), false],
  ["famsup", "school", "Family educational support", "Whether your family helps you with school work.", yesNo, false],
  ["famrel", "school", "Family relationships", "How good the relationships in your family are.", scale("very bad", "excellent"), false],
  ["traveltime", "study", "Travel time to school", "How long it takes you to get from home to school.", labelled({ 1: "<15 min", 2: "15 to 30 min", 3: "30 min to 1 hour", 4: ">1 hour" }), false],
  ["studytime", "study", "Weekly study time", "How many hours a week you study outside class.", labelled({ 1: "<2 hours", 2: "2 to 5 hours", 3: "5 to 10 hours", 4: ">10 hours" }), true],
  ["failures", "study", "Past class failures", "How many classes you failed before (4 means four or more).", labelled({ 0: "none", 1: "1", 2: "2", 3: "3", 4: "4 or more" }), false],
  ["schoolsup", "study", "Extra educational support", "Whether you get extra support from the school.", yesNo, true],
  ["paid", "study", "Extra paid classes", "Whether you take paid classes in this subject.", yesNo, false],
  ["nursery", "study", "Attended nursery school", "Whether you went to nursery school.", yesNo, false],
  ["higher", "study", "Wants higher education", "Whether you want to go on to higher education.", yesNo, true],
  ["internet", "study", "Internet at home", "Whether you have Internet access at home.", yesNo, false],
  ["absences", "study", "School absences", "How many school days you missed this year.", range(0, 100), true],
  ["activities", "lifestyle", "Extra-curricular activities", "Whether you take part in activities outside class.", yesNo, false],
  ["romantic", "lifestyle", "In a romantic relationship", "Whether you are in a relationship.", yesNo, false],
  ["freetime", "lifestyle", "Free time after school", "How much free time you have after school.", scale("very low", "very high"), false],
  ["goout", "lifestyle", "Going out with friends", "How often you go out with friends.", scale("very low", "very high"), true],
  ["health", "lifestyle", "Current health", "How you rate your health at the moment.", scale("very bad", "very good"), false],
  ["subject", "grades", "Subject", "The subject whose final score you want predicted.", subject, false],
  ["G1", "grades", "First period grade (G1)", "Your grade for the first period, out of 20. Choose “Not known yet” early in the term.", grade, false],
  ["G2", "grades", "Second period grade (G2)", "Your grade for the second period, out of 20. Choose “Not known yet” until you have it.", grade, false],
];

/** The schools of the data set the model learned from. */
export const modelSchools = ["GP", "MS"] as const;
export type ModelSchool = (typeof modelSchools)[number];

/**
 * Inputs of the model a student is never asked (issue 28): the school is the deployment's
 * (MODEL_SCHOOL, one of the two or neither), filled in by the server.
 */
export const notAsked: ReadonlySet<QuestionKey> = new Set(["school"]);

/** OPTIONAL_QUESTIONS unset: the sensitive questions of issue 31. */
export const defaultOptionalQuestions = keysOf(
  "health",
  "romantic",
  "famrel",
  "Pstatus",
  "Mjob",
  "Fjob",
);

/**
 * The questions a deployment may mark optional (OPTIONAL_QUESTIONS, issue 31): a student may
 * then leave them out ("Prefer not to say", sent as null) and the model answers with the input
 * marginalised (its effect exactly 0). Not the grades (G1, G2: "Not known yet" already), the
 * subject, the school record's inputs (absences, failures: a class's record may fill them) or
 * the what-if answers (the panel moves them); the rest of the background and lifestyle
 * questions, sensitive ones first.
 */
export const optionalCapableKeys = keysOf(
  ...defaultOptionalQuestions,
  "sex",
  "age",
  "address",
  "famsize",
  "Medu",
  "Fedu",
  "reason",
  "guardian",
  "traveltime",
  "famsup",
  "paid",
  "nursery",
  "internet",
  "activities",
  "freetime",
);
export type OptionalCapableKey = (typeof optionalCapableKeys)[number];
const optionalCapable: ReadonlySet<QuestionKey> = new Set(optionalCapableKeys);

export function isOptionalCapable(key: string): key is OptionalCapableKey {
  return optionalCapable.has(key as QuestionKey);
}

/** The message of a question left out that the deployment does not let students leave out. */
export function answerRequiredMessage(key: QuestionKey): string {
  const allowed = questionByKey[key].options.map((o) => o.value);
  return questionByKey[key].kind === "number"
    ? `This question must be answered: choose a whole number from ${allowed[0]} to ${allowed[allowed.length - 1]}.`
    : `This question must be answered: choose one of: ${allowed.join(", ")}.`;
}

/** The grades a student may not have yet early in the term. */
const mayBeUnknown: ReadonlySet<QuestionKey> = new Set(["G1", "G2"]);

export const questions: readonly Question[] = rows.map(
  ([key, section, label, help, options, actionable]) => ({
    key,
    section,
    label,
    help,
    options,
    actionable,
    ...(mayBeUnknown.has(key) ? { unknownLabel: notKnownYetLabel } : {}),
    kind: typeof options[0]?.value === "number" ? "number" : "choice",
  }),
);

/** The questions the form asks, in the catalogue's order: every one but the school. */
export const askedQuestions: readonly Question[] = questions.filter((q) => !notAsked.has(q.key));

export const questionByKey: Record<QuestionKey, Question> = Object.fromEntries(
  questions.map((x) => [x.key, x]),
) as Record<QuestionKey, Question>;

/**
 * The human label of an answer, e.g. Medu 4 → "higher education"; null → "Not known yet" (G1,
 * G2) or "Not answered" (an optional question left out).
 */
export function optionLabel(key: QuestionKey, value: string | number | null): string {
  if (value === null) {
    return (
      questionByKey[key].unknownLabel ?? (isOptionalCapable(key) ? notAnsweredLabel : "Not given")
    );
  }
  const found = questionByKey[key].options.find((o) => String(o.value) === String(value));
  return found ? found.label : String(value);
}

const integerText = /^(0|[1-9][0-9]*)$/;

/** One answer: the value may arrive as a string, as the original client sent it. */
function answerSchema(question: Question) {
  const allowed = question.options.map((o) => o.value);
  if (question.kind === "number") {
    const min = allowed[0] as number;
    const max = allowed[allowed.length - 1] as number;
    const unknown = question.unknownLabel !== undefined;
    const message = unknown
      ? `Choose a whole number from ${min} to ${max}, or null for not known yet.`
      : `Choose a whole number from ${min} to ${max}.`;
    const number = z.union([z.number(), z.string()], { error: message }).transform((v, ctx) => {
      const text = typeof v === "number" ? String(v) : v.trim();
      const n = integerText.test(text) ? Number(text) : Number.NaN;
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: "custom", message });
        return z.NEVER;
      }
      return n;
    });
    if (unknown) return z.union([z.null(), number], { error: message });
    // null is "Prefer not to say"; the server refuses it unless the deployment marks the
    // question optional (OPTIONAL_QUESTIONS). An answer left out entirely is refused as before.
    return optionalCapable.has(question.key)
      ? z.union([z.null(), number], { error: message })
      : number;
  }
  const message = `Choose one of: ${allowed.join(", ")}.`;
  const choice = z.string({ error: message }).refine((v) => allowed.includes(v), { message });
  // The subject may be left out (older clients, or filled in from the student's class); the
  // school is the deployment's: the server puts its own in place of whatever is sent.
  return question.key === "subject" || question.key === "school"
    ? z
        .union([z.null(), choice], { error: message })
        .optional()
        .transform((v) => v ?? null)
    : optionalCapable.has(question.key)
      ? z.union([z.null(), choice], { error: message })
      : choice;
}

/** G2 comes after G1: a second-period grade without the first is refused (no model for it). */
export const g2WithoutG1Message = "Give the first period grade (G1) before the second (G2).";

export const questionnaireSchema = z
  .object(
    Object.fromEntries(questions.map((x) => [x.key, answerSchema(x)])) as unknown as {
      [K in QuestionKey]: z.ZodType<
        K extends "G1" | "G2"
          ? number | null
          : K extends NumericKey
            ? K extends OptionalCapableKey
              ? number | null
              : number
            : K extends "subject"
              ? Subject | null
              : K extends "school"
                ? ModelSchool | null
                : K extends OptionalCapableKey
                  ? string | null
                  : string,
        unknown
      >;
    },
  )
  .superRefine((v, ctx) => {
    if (v.G2 !== null && v.G1 === null) {
      ctx.addIssue({ code: "custom", path: ["G2"], message: g2WithoutG1Message });
    }
  });
export type Questionnaire = z.infer<typeof questionnaireSchema>;

export { type Subject, subjects };

/** The lowest and highest answer of a numeric question (age: [10, 25]). */
export function numericRange(key: QuestionKey): [number, number] {
  const values = questionByKey[key].options.map((o) => Number(o.value));
  return [Math.min(...values), Math.max(...values)];
}

export type NumericKey =
  | "age"
  | "Medu"
  | "Fedu"
  | "traveltime"
  | "studytime"
  | "failures"
  | "famrel"
  | "freetime"
  | "goout"
  | "health"
  | "absences"
  | "G1"
  | "G2";
