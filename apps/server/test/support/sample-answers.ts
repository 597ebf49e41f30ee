import {
  type QuestionKey,
  type Questionnaire,
  questionByKey,
} from "@gradecast/contract/questionnaire";

// One student's questionnaire answers as the form sends them (strings): a profile of the middle
// of the data set. The one copy the API tests and the browser tests share; a test that needs
// another answer spreads this and changes that key.
export const sampleAnswers: Readonly<Record<string, string>> = {
  school: "GP",
  sex: "F",
  age: "16",
  address: "U",
  famsize: "GT3",
  Pstatus: "T",
  Medu: "3",
  Fedu: "2",
  Mjob: "services",
  Fjob: "other",
  reason: "course",
  guardian: "mother",
  traveltime: "1",
  studytime: "2",
  failures: "0",
  schoolsup: "no",
  famsup: "yes",
  paid: "no",
  activities: "yes",
  nursery: "yes",
  higher: "yes",
  internet: "yes",
  romantic: "no",
  famrel: "4",
  freetime: "3",
  goout: "3",
  health: "4",
  absences: "4",
  G1: "12",
  G2: "13",
};

/**
 * The same answers as the API stores and returns them: numbers for the numeric questions, and
 * the subject not given (null). Worked out here from the catalogue's kinds, not by the server's
 * own parsing, so a test comparing against it checks that parsing.
 */
export const sampleQuestionnaire = {
  ...Object.fromEntries(
    Object.entries(sampleAnswers).map(([key, value]) => [
      key,
      questionByKey[key as QuestionKey].kind === "number" ? Number(value) : value,
    ]),
  ),
  subject: null,
} as Questionnaire;
