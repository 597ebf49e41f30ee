// The two subjects the model knows, by the UCI files' codes (student-mat.csv, student-por.csv):
// a class's subject and the questionnaire's last answer.
export const subjects = ["mat", "por"] as const;
export type Subject = (typeof subjects)[number];
export const subjectLabels: Record<Subject, string> = { mat: "Mathematics", por: "Portuguese" };
