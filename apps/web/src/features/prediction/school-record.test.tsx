import type { ClassView } from "@gradecast/contract/classes";
import type { PredictionResult } from "@gradecast/contract/prediction";
import { studentSources } from "@gradecast/contract/school-record";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeServer, renderPage, signedInAs, testUser } from "../../test/render.tsx";
import { PredictionSource } from "./school-record.tsx";
import { WhatIf } from "./what-if.tsx";

// Issue 29 on the student's prediction: the values the class's school record supplied are
// marked as the school's, the what-if does not offer to change them, and a student in classes
// of both subjects is told which class the prediction is for.

const result = {
  prediction: 11.2,
  modelSetup: "A",
  inputs: {
    G1: 8,
    G2: 9,
    absences: 12,
    failures: 0,
    studytime: 2,
    goout: 3,
    schoolsup: "no",
    higher: "yes",
  },
  sources: { ...studentSources, G1: "school", absences: "school" },
  classId: "c-mat",
} as unknown as PredictionResult;

const klass = (id: string, name: string, subject: "mat" | "por") =>
  ({ id, name, subject, year: "2026/27" }) as ClassView;

function serve(classes: ClassView[]) {
  return fakeServer({
    ...signedInAs(testUser("student")),
    "GET /api/classes": () => ({ body: { items: classes } }),
  });
}

describe("the prediction's school record marks", () => {
  it("marks the values from the school record and names the class among two subjects", async () => {
    serve([klass("c-mat", "Maths 10B", "mat"), klass("c-por", "Portuguese 10B", "por")]);
    renderPage(<PredictionSource result={result} />, "/prediction");
    const list = await screen.findByRole("list");
    expect(
      within(list)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual([
      "School absences: 12 From your school record",
      "First period grade (G1): 8 From your school record",
    ]);
    expect(screen.getByText(/instead of your answers/)).toBeTruthy();
    expect((await screen.findByTestId("prediction-class")).textContent).toContain(
      "This prediction is for your class Maths 10B (Mathematics)",
    );
  });

  it("names no class when the student's classes share one subject", async () => {
    serve([klass("c-mat", "Maths 10B", "mat")]);
    renderPage(<PredictionSource result={result} />, "/prediction");
    await screen.findByRole("list");
    expect(screen.queryByTestId("prediction-class")).toBeNull();
  });

  it("shows nothing, and asks for no class, for a prediction made for no class from the student's own values", async () => {
    const server = serve([]);
    renderPage(
      <PredictionSource result={{ ...result, sources: studentSources, classId: null }} />,
      "/prediction",
    );
    await waitFor(() => expect(server.calls.map((c) => c.route)).toContain("GET /api/me"));
    // An unverified student may list no class: the screen must not ask (a 403 in the console).
    expect(server.calls.map((c) => c.route)).not.toContain("GET /api/classes");
    expect(screen.queryByText(/school record/)).toBeNull();
  });

  it("does not offer a school-held value in the what-if", async () => {
    serve([]);
    renderPage(<WhatIf base={result} />, "/prediction");
    const held = await screen.findByTestId("whatif-school-absences");
    expect(held.textContent).toBe("School absences12 From your school record");
    expect(screen.queryByRole("combobox", { name: "School absences" })).toBeNull();
    expect(screen.getByRole("combobox", { name: /study time/i })).toBeTruthy();
  });
});
