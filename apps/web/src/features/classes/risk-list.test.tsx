import type { ClassRisk, RiskItem } from "@gradecast/contract/class-risk";
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { columnHeaders, fakeServer, renderPage, signedInAs, testUser } from "../../test/render.tsx";
import { atRiskStudent, classRisk, recordInputs } from "../../test/risk-list-fixtures.ts";
import { RiskList } from "./risk-list.tsx";

// The risk list's notes are the class's teachers' alone (issue 20): a teacher sees the notes
// column and writes notes; an admin reads the same list without a notes column or a note form.
const note = {
  id: "note-1",
  studentId: "amy",
  action: "Phoned home about the absences.",
  doneOn: "2026-11-20",
  followUpOn: "2026-12-04",
  author: { id: "uid-teacher", name: "Test teacher" },
  createdAt: "2026-11-20T10:00:00.000Z",
};
const amy = atRiskStudent({
  studentId: "amy",
  name: "Amy Struggling",
  email: "amy@example.org",
  interval: { low: 4, high: 9 },
  reasons: [{ feature: "G2", label: "Second-period grade", value: 5, effect: -3.1 }],
  notes: [note],
});

function listOf(withNotes: boolean): ClassRisk {
  return {
    ...classRisk("Maths 10B", { students: 1, answered: 1, atRisk: 1 }, [
      { ...amy, notes: withNotes ? [note] : null },
    ]),
    withNotes,
  };
}

async function open(role: "teacher" | "admin") {
  fakeServer({
    ...signedInAs(testUser(role)),
    "GET /api/classes/c1/risk": () => ({ body: listOf(role === "teacher") }),
  });
  renderPage(<RiskList classId="c1" />, "/classes/c1");
  return screen.findByRole("table", { name: "Students of the class, sorted by risk" });
}

describe("the risk list's intervention notes", () => {
  it("shows a class's teacher the latest note and a way to add one", async () => {
    const table = await open("teacher");
    const headers = columnHeaders(table);
    expect(headers).toContain("Latest note");
    expect(headers).toContain("Follow-up");
    expect(within(table).getByText(`${note.doneOn}: ${note.action}`)).toBeTruthy();
    expect(screen.getByRole("button", { name: "Add note about Amy Struggling" })).toBeTruthy();
  });

  it("shows an admin the list with no notes column and no note form", async () => {
    const table = await open("admin");
    const headers = columnHeaders(table);
    expect(headers).toContain("Reasons");
    expect(headers).not.toContain("Latest note");
    expect(headers).not.toContain("Follow-up");
    expect(within(table).getByRole("rowheader", { name: "Amy Struggling" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: /Add note/ })).toBeNull();
    expect(screen.getByText(/Intervention notes are kept by the class's teachers/)).toBeTruthy();
  });
});

// Issue 29: each prediction's record inputs with their source, a mark when the student's own
// answers differ from the record, when the prediction was made, and no figure while a changed
// record is predicted again.
describe("the risk list's school record", () => {
  const ben: RiskItem = {
    ...amy,
    studentId: "ben",
    name: "Ben Steady",
    email: "ben@example.org",
    atRisk: false,
    prediction: 12,
    inputs: recordInputs(9),
    differs: true,
    predictedAt: "2026-11-21T09:00:00.000Z",
  };
  const cal: RiskItem = {
    ...ben,
    studentId: "cal",
    name: "Cal Waiting",
    differs: false,
    updating: true,
  };

  async function rows() {
    fakeServer({
      ...signedInAs(testUser("teacher")),
      "GET /api/classes/c1/risk": () => ({
        body: {
          ...listOf(true),
          counts: { students: 2, answered: 2, atRisk: 0 },
          items: [ben, cal],
        },
      }),
    });
    renderPage(<RiskList classId="c1" />, "/classes/c1");
    const table = await screen.findByRole("table", {
      name: "Students of the class, sorted by risk",
    });
    const headers = columnHeaders(table);
    const cellOf = (row: HTMLElement, column: string) =>
      row.querySelectorAll<HTMLElement>("th, td")[headers.indexOf(column)]!;
    return { rows: within(table).getAllByTestId("risk-row"), cellOf };
  }

  it("shows each record input with its source and marks answers that differ from the record", async () => {
    const {
      rows: [benRow],
      cellOf,
    } = await rows();
    const inputs = cellOf(benRow!, "Record inputs");
    expect([...inputs.querySelectorAll("li")].map((li) => li.textContent)).toEqual([
      "G1 8 school",
      "G2 9 student",
      "Absences 12 school",
      "Failures not known student",
    ]);
    expect(within(inputs).getByText("Differs from the record")).toBeTruthy();
    expect(inputs.textContent).toMatch(/differ from the school record \(a term grade by 2 or more/);
    expect(cellOf(benRow!, "Predicted on").textContent).toMatch(/2026/);
    expect(cellOf(benRow!, "Predicted final").textContent).toBe("12.0");
  });

  it("shows Updating… and no figure while a prediction is made again", async () => {
    const {
      rows: [, calRow],
      cellOf,
    } = await rows();
    expect(cellOf(calRow!, "Predicted final").textContent).toBe("Updating…");
    expect(cellOf(calRow!, "80% interval").textContent).toBe("");
    expect(cellOf(calRow!, "Predicted on").textContent).toBe("");
    expect(cellOf(calRow!, "Reasons").textContent).toBe("");
    expect(
      within(cellOf(calRow!, "Record inputs")).queryByText("Differs from the record"),
    ).toBeNull();
  });
});
