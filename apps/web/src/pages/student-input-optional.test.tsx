import {
  preferNotToSayLabel,
  questionByKey,
  askedQuestions as questions,
} from "@gradecast/contract/questionnaire";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fromSaved, isAnswer, preferNotValue, toRequest } from "../features/questionnaire/draft.ts";
import { fakeServer, renderPage, signedInAs, testUser, watchAlerts } from "../test/render.tsx";
import StudentInput from "./student-input.tsx";
import { nothingSent } from "./student-input-fixtures.ts";

// Issue 31: the questions the deployment marks optional (GET /api/site) say "optional" and offer
// "Prefer not to say"; that answer is kept in the draft and sent as null.
const student = testUser("student");
const site = {
  "GET /api/site": () => ({
    body: { contactEmail: null, schoolName: null, optionalQuestions: ["health", "Mjob"] },
  }),
};

describe('the draft\'s "Prefer not to say"', () => {
  it("is an answer on a question a deployment may mark optional, sent as null, read back from null", () => {
    expect(isAnswer("health", preferNotValue)).toBe(true);
    expect(isAnswer("studytime", preferNotValue)).toBe(false);
    expect(isAnswer("G1", preferNotValue)).toBe(false);
    const draft = fromSaved({ health: null, G1: null, Mjob: "other" });
    expect(draft.health).toBe(preferNotValue);
    expect(draft.G1).toBe("not-known");
    expect(toRequest(draft)).toMatchObject({ health: null, G1: null, Mjob: "other" });
  });
});

describe("the questionnaire's optional questions", () => {
  it("marks the deployment's optional questions and offers Prefer not to say on them alone", async () => {
    watchAlerts();
    const server = fakeServer({
      ...signedInAs(student),
      ...nothingSent,
      ...site,
      "POST /api/students": ({ body }) => ({ status: 201, body: { student: body } }),
    });
    const { user } = renderPage(<StudentInput />, "/student-input");
    await screen.findByRole("progressbar");
    const health = await screen.findByLabelText(`${questionByKey.health.label} (optional)`);
    expect([...(health as HTMLSelectElement).options].map((o) => o.textContent)).toContain(
      preferNotToSayLabel,
    );
    const romantic = screen.getByLabelText(questionByKey.romantic.label);
    expect([...(romantic as HTMLSelectElement).options].map((o) => o.textContent)).not.toContain(
      preferNotToSayLabel,
    );
    // by keyboard: the choice is a plain select option
    await user.selectOptions(health, preferNotValue);
    for (const q of questions) {
      if (q.key === "health") continue;
      const label = q.key === "Mjob" ? `${q.label} (optional)` : q.label;
      fireEvent.change(screen.getByLabelText(label), {
        target: { value: String(q.options[0]!.value) },
      });
    }
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() =>
      expect(server.calls.filter((c) => c.route === "POST /api/students")).toHaveLength(1),
    );
    const sent = server.calls.find((c) => c.route === "POST /api/students")!.body as Record<
      string,
      unknown
    >;
    expect(sent.health).toBeNull();
    expect(sent.Mjob).toBe(String(questionByKey.Mjob.options[0]!.value));
  });
});
