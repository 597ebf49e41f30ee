// The privacy notice's version: recorded when a person registers and when a student saves the
// questionnaire, so that the school can tell which notice each person saw. Change it whenever
// what Gradecast stores, why, who sees it or how long it is kept changes (the notice at /privacy
// is generated from the person-data registry; a test ties the two together).
export const privacyNoticeVersion = "2026-11-28";
