import { sampleAnswers } from "../apps/server/test/support/sample-answers.ts";

// The sample questionnaire answers live with the API tests, which share them with the browser
// tests; this keeps the browser tests' import of them short.
export { sampleAnswers };

/**
 * Answers (as the form sends them) of a weak term: the sample answers of a 17-year-old in
 * maths who studies little, with G1 and G2 of 8.
 */
export const weakTerm: Record<string, string> = {
  ...sampleAnswers,
  age: "17",
  studytime: "1",
  subject: "mat",
  G1: "8",
  G2: "8",
};

/** Answers (as the form sends them) of a student doing well: far from the risk line. */
export const doingWell = { ...sampleAnswers, studytime: "3", absences: "2", G1: "15", G2: "16" };

/** Answers (as the form sends them, maths) of a student struggling: at risk. */
export const struggling = {
  ...sampleAnswers,
  studytime: "1",
  failures: "2",
  higher: "no",
  goout: "5",
  romantic: "yes",
  absences: "20",
  G1: "6",
  G2: "5",
  subject: "mat",
};
