import type { Evaluation, EvaluationFigure } from "@gradecast/contract/evaluation";
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeServer, renderPage, signedInAs, testUser } from "../../test/render.tsx";
import { EvaluationView } from "./evaluation-view.tsx";

// How the model did (issue 29), as a teacher sees it: the figures per setup beside what the
// model card expects, a plain sentence where the school's figure is worse beyond noise, groups,
// the class picker (one class asks the server for that class), and the empty state.

const fig = (
  measure: EvaluationFigure["measure"],
  value: number,
  expected: number | null,
  worse = false,
): EvaluationFigure => ({
  measure,
  value,
  interval: { low: value * 0.9, high: value * 1.1 },
  expected,
  worse,
  note: worse
    ? `Typical error of the score (RMSE): ${value.toFixed(2)} here against ${expected} expected. That is worse than the model card's figure by more than chance explains.`
    : null,
});

const evaluation: Evaluation = {
  classes: [
    { id: "c1", name: "Maths 10B", subject: "mat" },
    { id: "c2", name: "Portuguese 11A", subject: "por" },
  ],
  classId: null,
  outcomes: 24,
  resamples: 1000,
  setups: [
    {
      setup: "A",
      n: 24,
      sat: 22,
      figures: [
        fig("rmse", 1.4, 0.83, true),
        fig("mae", 1.1, null),
        fig("accuracy", 0.9, 0.91),
        fig("brier", 0.05, 0.05),
        fig("auc", 0.9, 0.9),
        fig("coverage", 0.8, 0.84),
      ],
      calibration: {
        risk: [{ from: 0, to: 0.05, n: 20, predicted: 0.02, observed: 0.05 }],
        score: [{ from: 10, to: 12, n: 22, predicted: 11, observed: 11.5 }],
      },
      groups: [
        {
          kind: "class",
          label: "Maths 10B",
          n: 12,
          sat: 11,
          rmse: 1.3,
          accuracy: 0.9,
          coverage: 0.8,
        },
        { kind: "sex", label: "Female", n: 13, sat: 12, rmse: 1.5, accuracy: 0.85, coverage: 0.77 },
      ],
      hiddenGroups: 2,
    },
  ],
};

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
        body: { ...evaluation, outcomes: 0, setups: [] } satisfies Evaluation,
      }),
    });
    renderPage(<EvaluationView viewer="admin" />, "/evaluation");
    expect(await screen.findByText("No outcomes yet")).toBeTruthy();
    expect(screen.getByText(/record final grades in the class's gradebook/)).toBeTruthy();
    expect(screen.getByRole("option", { name: "The whole school" })).toBeTruthy();
  });
});
