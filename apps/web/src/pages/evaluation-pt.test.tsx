import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeServer, renderPage, signedInAs, testUser } from "../test/render.tsx";
import EvaluationPage from "./evaluation.tsx";

// The evaluation page's frame in European Portuguese (issue 33); its figures are tested in
// features/evaluation/evaluation-pt.test.tsx.

describe("the evaluation page in Portuguese", () => {
  it("has its title and description", async () => {
    fakeServer({
      ...signedInAs(testUser("admin", { locale: "pt-PT" })),
      "GET /api/evaluation": () => ({
        body: { classes: [], classId: null, outcomes: 0, resamples: 0, setups: [] },
      }),
      "GET /api/evaluation/flags": () => ({ body: { versions: [] } }),
    });
    renderPage(<EvaluationPage />, "/evaluation");
    expect(await screen.findByRole("heading", { name: "Como correu o modelo" })).toBeTruthy();
    expect(screen.getByText(/as previsões feitas antes delas são avaliadas aqui/)).toBeTruthy();
    expect(await screen.findByText("Ainda não há resultados")).toBeTruthy();
  });
});
