import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeServer, renderPage, signedInAs, testUser } from "../../test/render.tsx";
import { evaluationOf, noOutcomes } from "./evaluation-fixtures.ts";
import { EvaluationView } from "./evaluation-view.tsx";

// How the model did (issue 29), as a teacher sees it: the figures per setup beside what the
// model card expects, a plain sentence where the school's figure is worse beyond noise, groups,
// the class picker (one class asks the server for that class), and the empty state.

const evaluation = evaluationOf(["Maths 10B", "Portuguese 11A"], {
  worseNote:
    "Typical error of the score (RMSE): 1.40 here against 0.83 expected. That is worse than the model card's figure by more than chance explains.",
  femaleRmse: 1.5,
});

describe("how the model did", () => {
  it("shows each figure beside what is expected, and says plainly where it is worse", async () => {
    const server = fakeServer({
      ...signedInAs(testUser("teacher")),
      "GET /api/evaluation": () => ({ body: evaluation }),
    });
    const { user } = renderPage(<EvaluationView viewer="teacher" />, "/evaluation");
    const table = await screen.findByRole("table", {
      name: "After the second period grade (setup A): figures",
    });
    const rmse = within(table).getByRole("row", { name: /Typical error of the score/ });
    expect(within(rmse).getByText("1.40")).toBeTruthy();
    expect(within(rmse).getByText("0.83")).toBeTruthy();
    expect(within(rmse).getByText("Worse than expected")).toBeTruthy();
    expect(screen.getByText(/worse than the model card's figure by more than chance/)).toBeTruthy();
    const coverage = within(table).getByRole("row", { name: /Range held the final grade/ });
    expect(within(coverage).queryByText("Worse than expected")).toBeNull();
    // Groups with their counts; the hidden ones are counted, not shown.
    const groups = screen.getByRole("table", {
      name: "After the second period grade (setup A): by group",
    });
    expect(within(groups).getByRole("row", { name: /Class: Maths 10B/ })).toBeTruthy();
    expect(screen.getByText("2 groups with fewer than 5 students not shown.")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Download CSV" })).toBeTruthy();
    // What each measure means, in plain words.
    expect(screen.getByText(/1 is perfect, 0.5 is guessing/)).toBeTruthy();

    // Picking one class asks the server again, for that class.
    const asked = () => server.calls.filter((c) => c.route === "GET /api/evaluation").length;
    expect(asked()).toBe(1);
    await user.selectOptions(screen.getByLabelText("Classes"), "c2");
    await screen.findByRole("table", { name: "After the second period grade (setup A): figures" });
    expect(asked()).toBe(2);
  });

  it("says how to get figures when no outcome is recorded yet", async () => {
    fakeServer({
      ...signedInAs(testUser("admin")),
      "GET /api/evaluation": () => ({
        body: noOutcomes(evaluation),
      }),
    });
    renderPage(<EvaluationView viewer="admin" />, "/evaluation");
    expect(await screen.findByText("No outcomes yet")).toBeTruthy();
    expect(screen.getByText(/record final grades in the class's gradebook/)).toBeTruthy();
    expect(screen.getByRole("option", { name: "The whole school" })).toBeTruthy();
  });
});
