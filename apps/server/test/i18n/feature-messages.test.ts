import { securityMessages } from "@gradecast/contract/account-security";
import { adminMessages } from "@gradecast/contract/admin";
import { alertMessages } from "@gradecast/contract/alerts";
import { analyticsMessages } from "@gradecast/contract/analytics";
import { riskMessages } from "@gradecast/contract/class-risk";
import { classMessages } from "@gradecast/contract/classes";
import { consentMessages } from "@gradecast/contract/consent";
import { dataRightsMessages } from "@gradecast/contract/data-rights";
import { evaluationMessages } from "@gradecast/contract/evaluation";
import { modelMessages } from "@gradecast/contract/model-lifecycle";
import { oneRosterMessages } from "@gradecast/contract/oneroster";
import { reportStudentMessages } from "@gradecast/contract/report-students";
import { recordMessages } from "@gradecast/contract/school-record";
import { teacherInvitationMessages } from "@gradecast/contract/teacher-invitations";
import { describe, expect, test } from "vitest";
import { translateMessage } from "../../src/i18n/translate.ts";

// Issue 33: an API error's message is in the caller's language. The server finds each English
// message again in the shared catalogue (contract locales/*/messages.json); every message a
// feature answers with must be there, or a Portuguese caller reads it in English.

/** Words of the risk list's cells, not messages: the cells' catalogue (risk.json) has them. */
const cellWords = new Set<string>([
  riskMessages.notAnswered,
  riskMessages.updating,
  riskMessages.reasonsEarlierModel,
  riskMessages.differs,
  riskMessages.differsExplained,
]);

const groups = {
  adminMessages,
  alertMessages,
  analyticsMessages,
  classMessages,
  consentMessages,
  dataRightsMessages,
  evaluationMessages,
  modelMessages,
  oneRosterMessages,
  recordMessages,
  reportStudentMessages,
  riskMessages,
  securityMessages,
  teacherInvitationMessages,
};

const messages = Object.entries(groups).flatMap(([group, texts]) =>
  Object.entries(texts as Record<string, unknown>)
    .filter((entry): entry is [string, string] => typeof entry[1] === "string")
    .filter(([, text]) => !cellWords.has(text))
    .map(([name, text]) => [`${group}.${name}`, text] as const),
);

describe("every feature's message in Portuguese", () => {
  test("there are messages to check", () => {
    expect(messages.length).toBeGreaterThan(100);
  });

  test.each(messages)("%s", (_name, text) => {
    expect(translateMessage(text, "en")).toBe(text);
    expect(translateMessage(text, "pt-PT")).not.toBe(text);
  });
});
