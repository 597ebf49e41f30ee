import type { ModelState } from "@gradecast/contract/model-lifecycle";
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeServer, renderPage, signedInAs, testUser } from "../../test/render.tsx";
import { cardRow, modelFixtures, trainRoute } from "./model-fixtures.ts";
import { ModelView } from "./model-view.tsx";

// The admin screen "Model" (issue 30): the version in use, the school's outcomes, a refused
// candidate with its comparison and reasons (no promote button), a passing one that can be put
// in use, an earlier version to roll back to, and training's progress.

const { version, shipped, modelState, trainingAfterPromotion } = modelFixtures([
  { setup: "A", weight: 2, rows: 60 },
]);

const gate = (promotable: boolean, reasons: string[]) => ({
  promotable,
  reasons,
  minOutcomes: 50,
  outcomes: { mat: 60, por: 60 },
  comparison: [
    {
      setup: "A" as const,
      measure: "scoreIfSits RMSE",
      rows: 60,
      current: 0.9,
      candidate: promotable ? 0.85 : 1.2,
      difference: promotable ? -0.05 : 0.3,
      lower: promotable ? -0.08 : 0.2,
      upper: promotable ? -0.01 : 0.4,
      verdict: promotable ? ("better" as const) : ("worse" as const),
    },
  ],
  coverage: [],
  checks: { monotone: true, additivity: true, failures: [] },
});

const state = (over: Partial<ModelState> = {}): ModelState =>
  modelState({
    card: [cardRow(0.83, 0.84)],
    versions: [
      version({
        id: "cand-refused",
        state: "refused",
        gate: gate(false, [
          "Setup A: scoreIfSits RMSE 1.2 against 0.9 for the model in use (worse).",
        ]),
      }),
      version({ id: "cand-good", state: "candidate", gate: gate(true, []) }),
      shipped,
    ],
    ...over,
  });

describe("the Model screen", () => {
  it("shows why a candidate is refused, offers only a passing one, and starts a training", async () => {
    const server = fakeServer({
      ...signedInAs(testUser("admin")),
      "GET /api/admin/model": () => ({ body: state() }),
      ...trainRoute,
    });
    const { user } = renderPage(<ModelView />, "/admin/model");
    expect(await screen.findByText("hurdle-3.0.0-ship")).toBeTruthy();
    const refused = screen.getByRole("region", { name: "Candidate cand-refused" });
    expect(within(refused).getByText("The gate refuses this candidate")).toBeTruthy();
    expect(within(refused).getByText(/scoreIfSits RMSE 1.2 against 0.9/)).toBeTruthy();
    expect(within(refused).queryByRole("button", { name: "Put this candidate in use" })).toBeNull();
    const good = screen.getByRole("region", { name: "Candidate cand-good" });
    expect(within(good).getByText("The gate passes this candidate")).toBeTruthy();
    expect(within(good).getByRole("button", { name: "Put this candidate in use" })).toBeTruthy();

    await user.click(screen.getByRole("button", { name: "Train a candidate" }));
    expect(await screen.findByText("Training started. Its progress shows below.")).toBeTruthy();
    expect(server.calls.some((c) => c.route === "POST /api/admin/model/train")).toBe(true);
  });

  it("shows a running training's progress and an earlier version to roll back to", async () => {
    fakeServer({
      ...signedInAs(testUser("admin")),
      "GET /api/admin/model": () => ({
        body: state(trainingAfterPromotion),
      }),
    });
    renderPage(<ModelView />, "/admin/model");
    expect(await screen.findByText(/4 of 21 steps/)).toBeTruthy();
    expect(screen.getByRole("progressbar", { name: "Training progress" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Roll back to this version" })).toBeTruthy();
    expect(
      screen.getByRole("button", { name: "Train a candidate" }).getAttribute("aria-disabled"),
    ).toBe("true");
  });
});
