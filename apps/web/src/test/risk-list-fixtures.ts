import type { ClassRisk, RiskItem } from "@gradecast/contract/class-risk";

// The risk list's rows and the list itself, for the tests of the risk list and of flags and
// plans in both languages: a student who answered and is at risk; each test gives the name,
// reasons, notes or inputs it asserts.

export const atRiskStudent = (over: Partial<RiskItem> = {}): RiskItem => ({
  studentId: "ana",
  name: "Ana Sousa",
  email: "ana@example.org",
  answered: true,
  answeredAt: "2026-11-18T09:00:00.000Z",
  prediction: 6.5,
  interval: { low: 4, high: 9.5 },
  band: "improve",
  noFinalScoreRisk: 0.3,
  scoreIfSits: 7,
  modelSetup: "A",
  atRisk: true,
  shared: false,
  reasons: [],
  explanation: null,
  notes: [],
  contest: null,
  inputs: null,
  differs: false,
  predictedAt: "2026-11-18T09:00:00.000Z",
  updating: false,
  ...over,
});

// A prediction's inputs with the first-period grade and the absences from the school record,
// the second-period grade and the failures from the student's answers.
export const recordInputs = (g2: number): RiskItem["inputs"] => ({
  G1: { value: 8, source: "school" },
  G2: { value: g2, source: "student" },
  absences: { value: 12, source: "school" },
  failures: { value: null, source: "student" },
});

// Maths class c1's list, as one of its teachers gets it (with notes).
export const classRisk = (
  name: string,
  counts: ClassRisk["counts"],
  items: RiskItem[],
): ClassRisk => ({
  class: { id: "c1", name, subject: "mat", year: "2026/27" },
  counts,
  withNotes: true,
  items,
});
