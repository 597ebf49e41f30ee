import type { Plan } from "@gradecast/contract/alerts";
import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeServer, renderPage, signedInAs, testUser } from "../../test/render.tsx";
import { atRiskStudent, classRisk } from "../../test/risk-list-fixtures.ts";
import FlagsAndPlans from "./flags-and-plans.tsx";

// A class's flags and intervention plans in European Portuguese (issue 33): the card, a flag not
// judged yet with its refusal beside the field, a plan's row with its day as 1/12/2026.
const teacher = testUser("teacher", { uid: "t1", name: "Prof. Lima", locale: "pt-PT" });
const risk = classRisk("Matemática 10.º B", { students: 1, answered: 1, atRisk: 1 }, [
  atRiskStudent(),
]);
const plan: Plan = {
  id: "p1",
  classId: "c1",
  student: { id: "ana", name: "Ana Sousa" },
  owner: { id: "t1", name: "Prof. Lima" },
  tier: 2,
  goal: "Estudar com o grupo às terças.",
  reviewOn: "2026-12-01",
  overdue: true,
  createdAt: "2026-11-20T10:00:00.000Z",
  closedAt: null,
  outcome: null,
};

describe("flags and plans in Portuguese", () => {
  it("asks for a judgement beside the field and writes a plan's row in pt-PT", async () => {
    fakeServer({
      ...signedInAs(teacher),
      "GET /api/classes/c1/risk": () => ({ body: risk }),
      "GET /api/classes/c1/flags": () => ({ body: { items: [] } }),
      "GET /api/classes/c1/plans": () => ({ body: { items: [plan] } }),
    });
    renderPage(
      <FlagsAndPlans classId="c1" teachers={[{ id: "t1", name: "Prof. Lima" }]} myId="t1" />,
      "/classes/c1",
    );
    expect(
      await screen.findByRole("heading", { name: "Alertas e planos de intervenção" }),
    ).toBeTruthy();
    expect(await screen.findByText("Ainda sem juízo")).toBeTruthy();
    fireEvent.click(
      screen.getByRole("button", { name: "Guardar o juízo sobre o alerta de Ana Sousa" }),
    );
    expect(await screen.findByText("Escolha um juízo.")).toBeTruthy();
    expect(
      screen.getByLabelText("Avaliar o alerta de Ana Sousa").getAttribute("aria-invalid"),
    ).toBe("true");
    expect(screen.getByRole("option", { name: "Alerta incorreto" })).toBeTruthy();
    const row = await screen.findByTestId("plan-row");
    expect(row.querySelector("p")?.textContent).toBe(
      "Ana Sousa · Nível 2 · Responsável Prof. Lima · Revisão 1/12/2026 Revisão em atraso",
    );
    fireEvent.click(screen.getByRole("button", { name: "Começar um plano para Ana Sousa" }));
    expect(await screen.findByRole("heading", { name: "Plano para Ana Sousa" })).toBeTruthy();
    expect(screen.getByRole("option", { name: "Nível 3" })).toBeTruthy();
  });
});
