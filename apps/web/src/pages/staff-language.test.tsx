import type { ClassView } from "@gradecast/contract/classes";
import { screen } from "@testing-library/react";
import { describe, expect, test } from "vitest";
import { fakeServer, renderPage, signedInAs, testUser } from "../test/render.tsx";
import Classes from "./classes.tsx";

// The teacher's screens in European Portuguese (issue 33): a teacher whose account speaks pt-PT.

const teacher = testUser("teacher", { locale: "pt-PT" });
const maths: ClassView = {
  id: "c1",
  name: "Matemática 10.º B",
  subject: "mat",
  year: "2026/27",
  teachers: [{ id: teacher.uid, name: "Ms Reis", email: "reis@example.org" }],
  studentCount: 3,
  joinCode: "ABCD-1234",
  createdAt: "2026-09-01T10:00:00.000Z",
};

describe("the teacher's screens in Portuguese", () => {
  test("the classes page", async () => {
    fakeServer({
      ...signedInAs(teacher),
      "GET /api/classes": () => ({ body: { items: [maths] } }),
    });
    renderPage(<Classes />, "/classes");
    expect(await screen.findByRole("link", { name: "Matemática 10.º B" })).toBeTruthy();
    expect(screen.getByText("Matemática · 2026/27 · 3 alunos")).toBeTruthy();
    expect(screen.getByText("Lecionada por Ms Reis")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Criar turma" })).toBeTruthy();
    expect(screen.getByLabelText("Ano letivo")).toBeTruthy();
  });
});
