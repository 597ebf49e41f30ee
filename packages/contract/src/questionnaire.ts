import { z } from "zod";

// The student record of SPEC.md section 3: 30 questions, each a required select. This
// catalogue is the one source for the form, the server's validation, the database ranges and
// the labels of the model's explanations.

export interface Option {
  value: string | number;
  label: string;
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
}

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
] as const;
export type QuestionKey = (typeof questionKeys)[number];

const range = (from: number, to: number, label?: (n: number) => string): Option[] =>
  Array.from({ length: to - from + 1 }, (_, i) => ({
    value: from + i,
    label: label ? label(from + i) : String(from + i),
  }));
const labelled = (labels: Record<number, string>): Option[] =>
  Object.entries(labels).map(([v, label]) => ({ value: Number(v), label }));
const yesNo: Option[] = [
  { value: "yes", label: "Yes" },
  { value: "no", label: "No" },
];
const education = labelled({
  0: "none",
  1: "primary (4th grade)",
  2: "5th to 9th grade",
  3: "secondary",
  4: "higher education",
});
const job: Option[] = [
  { value: "teacher", label: "Teacher" },
  { value: "health", label: "Health care" },
  { value: "services", label: "Civil services" },
  { value: "at_home", label: "At home" },
  { value: "other", label: "Other" },
];
const scale = (low: string, high: string) =>
  labelled({ 1: `${low}`, 2: "low", 3: "medium", 4: "high", 5: `${high}` });

type Q = Omit<Question, "kind"> & { kind?: Question["kind"] };
const q = (x: Q): Question => ({
  ...x,
  kind: x.kind ?? (typeof x.options[0]?.value === "number" ? "number" : "choice"),
});

export const questions: readonly Question[] = [
  q({
    key: "school",
    section: "school",
    label: "School",
    help: "The school you attend.",
    options: [
      { value: "GP", label: "Gabriel Pereira" },
      { value: "MS", label: "Mousinho da Silveira" },
    ],
    actionable: false,
  }),
  q({
    key: "sex",
    section: "school",
    label: "Sex",
    help: "As recorded by the school.",
    options: [
      { value: "F", label: "Female" },
      { value: "M", label: "Male" },
    ],
    actionable: false,
  }),
  q({
    key: "age",
    section: "school",
    label: "Age",
    help: "Your age in years.",
    options: range(10, 25),
    actionable: false,
  }),
  q({
    key: "address",
    section: "school",
    label: "Home address",
    help: "Whether you live in a town or in the countryside.",
    options: [
      { value: "U", label: "Urban" },
      { value: "R", label: "Rural" },
    ],
    actionable: false,
  }),
  q({
    key: "famsize",
    section: "school",
    label: "Family size",
    help: "How many people live in your family.",
    options: [
      { value: "LE3", label: "three or fewer" },
      { value: "GT3", label: "more than three" },
    ],
    actionable: false,
  }),
  q({
    key: "Pstatus",
    section: "school",
    label: "Parents living together",
    help: "Whether your parents live together or apart.",
    options: [
      { value: "T", label: "Together" },
      { value: "A", label: "Apart" },
    ],
    actionable: false,
  }),
  q({
    key: "Medu",
    section: "school",
    label: "Mother's education",
    help: "The highest level of education your mother completed.",
    options: education,
    actionable: false,
  }),
  q({
    key: "Fedu",
    section: "school",
    label: "Father's education",
    help: "The highest level of education your father completed.",
    options: education,
    actionable: false,
  }),
  q({
    key: "Mjob",
    section: "school",
    label: "Mother's job",
    help: "The kind of work your mother does.",
    options: job,
    actionable: false,
  }),
  q({
    key: "Fjob",
    section: "school",
    label: "Father's job",
    help: "The kind of work your father does.",
    options: job,
    actionable: false,
  }),
  q({
    key: "reason",
    section: "school",
    label: "Reason for choosing this school",
    help: "The main reason you chose your school.",
    options: [
      { value: "home", label: "Close to home" },
      { value: "reputation", label: "School reputation" },
      { value: "course", label: "Course preference" },
      { value: "other", label: "Other" },
    ],
    actionable: false,
  }),
  q({
    key: "guardian",
    section: "school",
    label: "Guardian",
    help: "Who is legally responsible for you.",
    options: [
      { value: "mother", label: "Mother" },
      { value: "father", label: "Father" },
      { value: "other", label: "Other" },
    ],
    actionable: false,
  }),
  q({
    key: "famsup",
    section: "school",
    label: "Family educational support",
    help: "Whether your family helps you with school work.",
    options: yesNo,
    actionable: true,
  }),
  q({
    key: "famrel",
    section: "school",
    label: "Family relationships",
    help: "How good the relationships in your family are.",
    options: scale("very bad", "excellent"),
    actionable: false,
  }),
  q({
    key: "traveltime",
    section: "study",
    label: "Travel time to school",
    help: "How long it takes you to get from home to school.",
    options: labelled({ 1: "<15 min", 2: "15 to 30 min", 3: "30 min to 1 hour", 4: ">1 hour" }),
    actionable: false,
  }),
  q({
    key: "studytime",
    section: "study",
    label: "Weekly study time",
    help: "How many hours a week you study outside class.",
    options: labelled({ 1: "<2 hours", 2: "2 to 5 hours", 3: "5 to 10 hours", 4: ">10 hours" }),
    actionable: true,
  }),
  q({
    key: "failures",
    section: "study",
    label: "Past class failures",
    help: "How many classes you failed before (4 means four or more).",
    options: labelled({ 0: "none", 1: "1", 2: "2", 3: "3", 4: "4 or more" }),
    actionable: false,
  }),
  q({
    key: "schoolsup",
    section: "study",
    label: "Extra educational support",
    help: "Whether you get extra support from the school.",
    options: yesNo,
    actionable: true,
  }),
  q({
    key: "paid",
    section: "study",
    label: "Extra paid classes",
    help: "Whether you take paid classes in this subject.",
    options: yesNo,
    actionable: true,
  }),
  q({
    key: "nursery",
    section: "study",
    label: "Attended nursery school",
    help: "Whether you went to nursery school.",
    options: yesNo,
    actionable: false,
  }),
  q({
    key: "higher",
    section: "study",
    label: "Wants higher education",
    help: "Whether you want to go on to higher education.",
    options: yesNo,
    actionable: true,
  }),
  q({
    key: "internet",
    section: "study",
    label: "Internet at home",
    help: "Whether you have Internet access at home.",
    options: yesNo,
    actionable: true,
  }),
  q({
    key: "absences",
    section: "study",
    label: "School absences",
    help: "How many school days you missed this year.",
    options: range(0, 100),
    actionable: true,
  }),
  q({
    key: "activities",
    section: "lifestyle",
    label: "Extra-curricular activities",
    help: "Whether you take part in activities outside class.",
    options: yesNo,
    actionable: true,
  }),
  q({
    key: "romantic",
    section: "lifestyle",
    label: "In a romantic relationship",
    help: "Whether you are in a relationship.",
    options: yesNo,
    actionable: false,
  }),
  q({
    key: "freetime",
    section: "lifestyle",
    label: "Free time after school",
    help: "How much free time you have after school.",
    options: scale("very low", "very high"),
    actionable: true,
  }),
  q({
    key: "goout",
    section: "lifestyle",
    label: "Going out with friends",
    help: "How often you go out with friends.",
    options: scale("very low", "very high"),
    actionable: true,
  }),
  q({
    key: "health",
    section: "lifestyle",
    label: "Current health",
    help: "How you rate your health at the moment.",
    options: scale("very bad", "very good"),
    actionable: false,
  }),
  q({
    key: "G1",
    section: "grades",
    label: "First period grade (G1)",
    help: "Your grade for the first period, out of 20.",
    options: range(0, 20),
    actionable: false,
  }),
  q({
    key: "G2",
    section: "grades",
    label: "Second period grade (G2)",
    help: "Your grade for the second period, out of 20.",
    options: range(0, 20),
    actionable: false,
  }),
];

export const questionByKey: Record<QuestionKey, Question> = Object.fromEntries(
  questions.map((x) => [x.key, x]),
) as Record<QuestionKey, Question>;

/** The human label of an answer, e.g. Medu 4 → "higher education". */
export function optionLabel(key: QuestionKey, value: string | number): string {
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
    const message = `Choose a whole number from ${min} to ${max}.`;
    return z.union([z.number(), z.string()], { error: message }).transform((v, ctx) => {
      const text = typeof v === "number" ? String(v) : v.trim();
      const n = integerText.test(text) ? Number(text) : Number.NaN;
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: "custom", message });
        return z.NEVER;
      }
      return n;
    });
  }
  const message = `Choose one of: ${allowed.join(", ")}.`;
  return z.string({ error: message }).refine((v) => allowed.includes(v), { message });
}

export const questionnaireSchema = z.object(
  Object.fromEntries(questions.map((x) => [x.key, answerSchema(x)])) as unknown as {
    [K in QuestionKey]: z.ZodType<K extends NumericKey ? number : string, unknown>;
  },
);
export type Questionnaire = z.infer<typeof questionnaireSchema>;

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
