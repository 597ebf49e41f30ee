import type { ClassView } from "@gradecast/contract/classes";
import type { ClassRecord } from "@gradecast/contract/school-record";
import { screen } from "@testing-library/react";
import { describe, expect, test } from "vitest";
import { Gradebook } from "../features/record/gradebook.tsx";
import { renderAs, testUser } from "../test/render.tsx";
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
    renderAs(teacher, <Classes />, "/classes", { "/api/classes": { items: [maths] } });
    expect(await screen.findByRole("link", { name: "Matemática 10.º B" })).toBeTruthy();
    expect(screen.getByText("Matemática · 2026/27 · 3 alunos")).toBeTruthy();
    expect(screen.getByText("Lecionada por Ms Reis")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Criar turma" })).toBeTruthy();
    expect(screen.getByLabelText("Ano letivo")).toBeTruthy();
  });

  test("the gradebook", async () => {
    const record: ClassRecord = {
      class: { id: "c1", name: maths.name, subject: "mat", year: "2026/27" },
      canEdit: true,
      items: [
        {
          studentId: "amy",
          name: "Amy",
          email: "amy@example.org",
          values: {
            G1: {
              value: 8,
              setBy: { id: teacher.uid, name: "Ms Reis" },
              setAt: "2026-11-20T10:00:00.000Z",
            },
            G2: null,
            absences: null,
            failures: null,
            G3: null,
            sat: {
              value: true,
              setBy: { id: teacher.uid, name: "Ms Reis" },
              setAt: "2026-11-20T10:00:00.000Z",
            },
          },
        },
      ],
    };
    renderAs(teacher, <Gradebook classId="c1" />, "/classes/c1", {
      "/api/classes/c1/record": record,
    });
    expect(await screen.findByRole("heading", { name: "Pauta" })).toBeTruthy();
    expect(await screen.findByRole("columnheader", { name: "Faltas" })).toBeTruthy();
    expect((screen.getByLabelText("Fez o exame de Amy") as HTMLInputElement).value).toBe("sim");
    expect(screen.getByLabelText("G1 de Amy").getAttribute("title")).toMatch(
      /^Registado por Ms Reis em 20\/11\/2026/,
    );
  });
});
