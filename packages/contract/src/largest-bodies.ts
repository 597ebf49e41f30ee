import { noteLimits } from "./class-risk.ts";
import { questions } from "./questionnaire.ts";
import { behaviors, reportLimits } from "./reports.ts";

// The largest valid request bodies of the routes whose schemas do not bound their size
// themselves (custom checks, patterns), for the tests that hold each route's body limit
// (the route entries) above what it must take: the contract's and the server's.

const longest = (values: readonly (string | number)[]) =>
  values.map(String).reduce((a, b) => (b.length > a.length ? b : a), "");
const id = "00000000-0000-4000-8000-000000000000";
/** A letter JSON cannot write in fewer than two bytes (and here always writes in six). */
const text = (length: number) => "é".repeat(length);

/** The 30 answers and the subject, each its longest valid value (numbers as text). */
export const largestQuestionnaire = Object.fromEntries(
  questions.map((q) => [q.key, longest(q.options.map((o) => o.value))]),
);

/** A report naming its student and class, every text at its longest. */
export const largestReport = {
  studentName: text(reportLimits.studentName.max),
  course: text(reportLimits.course.max),
  marks: String(reportLimits.marks.max),
  attendance: String(reportLimits.attendance.max),
  assignments: String(reportLimits.assignments.max),
  behavior: longest(behaviors),
  feedback: text(reportLimits.feedback.max),
  studentId: id,
  classId: id,
};

export const largestNote = {
  action: text(noteLimits.action),
  doneOn: "2026-01-01",
  followUpOn: "2026-01-02",
};

/**
 * JSON with every character of every string written as a \uXXXX escape: the most bytes a
 * client may send for a body, six for each UTF-16 unit of its text.
 */
export function escapedJson(value: unknown): string {
  if (typeof value === "string") {
    const units = Array.from(value, (c) =>
      Array.from({ length: c.length }, (_, i) => c.charCodeAt(i)),
    ).flat();
    return `"${units.map((u) => `\\u${u.toString(16).padStart(4, "0")}`).join("")}"`;
  }
  if (Array.isArray(value)) return `[${value.map(escapedJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).map(([k, v]) => `${escapedJson(k)}:${escapedJson(v)}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value);
}
