import {
  modelSetupLabels,
  otherAnswersLabel,
  riskInputLabels,
  riskMessages,
} from "@gradecast/contract/class-risk";
import { classMessages } from "@gradecast/contract/classes";
import { oversightNotice, teacherOversightNotice } from "@gradecast/contract/consent";
import { messages } from "@gradecast/contract/messages";
import { recordDiffers } from "@gradecast/contract/school-record";
import { IntlMessageFormat } from "intl-messageformat";
import { describe, expect, test } from "vitest";
import risk from "../../../../packages/contract/src/locales/en/risk.json";
import classRisk from "../locales/en/class-risk.json";
import joinClass from "../locales/en/join-class.json";
import prediction from "../locales/en/prediction.json";
import verify from "../locales/en/verify.json";

// Where a screen's English comes from the catalogue but the same words are the contract's (the
// server's answers, the CSV export, the English path of a translated list), the two must not
// drift: English pages keep saying exactly what the contract says. The risk list's cell words
// live in the contract's own catalogue (locales/en/risk.json), shared with the server's CSV.

const en = { ...classRisk, ...risk, ...joinClass, ...prediction, ...verify } as Record<
  string,
  string
>;
const say = (id: string, values?: Record<string, string | number>) =>
  String(new IntlMessageFormat(en[id] ?? `missing ${id}`, "en").format(values));

describe("English catalogue entries that copy the contract", () => {
  test.each([
    ["risk.oversight", teacherOversightNotice],
    ["risk.notAnswered", riskMessages.notAnswered],
    ["risk.updating", riskMessages.updating],
    ["risk.beforeMeasure", riskMessages.beforeMeasure],
    ["risk.reasonsEarlierModel", riskMessages.reasonsEarlierModel],
    ["risk.differs", riskMessages.differs],
    ["risk.model.A", modelSetupLabels.A],
    ["risk.model.B", modelSetupLabels.B],
    ["risk.model.C", modelSetupLabels.C],
    ["risk.input.absences", riskInputLabels.absences],
    ["risk.input.failures", riskInputLabels.failures],
    ["risk.otherAnswers", otherAnswersLabel],
    ["join.codeRequired", classMessages.joinCodeRequired],
    ["prediction.oversight.text", oversightNotice],
    ["verify.success", messages.verifySuccess],
    ["verify.invalid", messages.verifyInvalid],
  ])("%s", (id, contract) => {
    expect(say(id)).toBe(contract);
  });

  test("messages with values", () => {
    expect(say("risk.differsExplained", recordDiffers)).toBe(riskMessages.differsExplained);
    expect(say("join.invitations.accepted", { name: "Maths 10B" })).toBe(
      `${classMessages.invitationAccepted} Maths 10B`,
    );
    expect(say("join.invitations.declined", { name: "Maths 10B" })).toBe(
      `${classMessages.invitationDeclined} Maths 10B`,
    );
    expect(say("join.left", { name: "Maths 10B" })).toBe(`${classMessages.leftClass} Maths 10B`);
  });
});
