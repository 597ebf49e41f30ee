import { messages } from "@gradecast/contract/messages";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeServer, renderPage, signedInAs, testUser } from "../test/render.tsx";
import TeacherInput from "./teacher-input.tsx";

// The teacher's report form: a number is kept as typed and marked when it is
// out of range, and the form refuses it on send; an incomplete form is stopped before anything
// is sent; a complete one is sent once and the form starts over.
const teacher = testUser("teacher");
const noStudents = { "GET /api/classes/students": () => ({ body: { items: [] } }) };

async function openForm() {
  const server = fakeServer({
    ...signedInAs(teacher),
    ...noStudents,
    "POST /api/reports": ({ body }) => ({ status: 201, body: { report: body } }),
  });
  const view = renderPage(<TeacherInput />, "/teacher-input");
  await screen.findByRole("form", { name: "Student report" });
  return { server, ...view };
}

/** The error written beside a field (tied to it with aria-describedby). */
const errorOf = (input: HTMLElement) =>
  document.getElementById(`${input.id}-error`)?.textContent ?? "";

async function fillReport(user: Awaited<ReturnType<typeof openForm>>["user"]) {
  await user.type(screen.getByRole("combobox", { name: "Student name" }), "Ana Lima");
  await user.type(screen.getByLabelText("Course"), "Mathematics");
  await user.type(screen.getByLabelText("Marks"), "80");
  await user.type(screen.getByLabelText("Attendance"), "95");
  await user.type(screen.getByLabelText("Assignments"), "5");
  const behavior = screen.getByLabelText("Behavior") as HTMLSelectElement;
  const option = behavior.options[1]?.value ?? "";
  fireEvent.change(behavior, { target: { value: option } });
  await user.type(screen.getByLabelText("Feedback"), "Steady work all term.");
  return option;
}

describe("the teacher report form", () => {
  it("never changes a number as typed: 101, -5, 7.5 and 100.5 stay, marked invalid with why", async () => {
    const { user } = await openForm();
    const marks = screen.getByLabelText("Marks") as HTMLInputElement;
    for (const typed of ["101", "-5", "7.5", "100.5"]) {
      await user.clear(marks);
      await user.type(marks, typed);
      expect(marks.value).toBe(typed);
      expect(marks.getAttribute("aria-invalid"), typed).toBe("true");
      expect(errorOf(marks)).toBe(`“${typed}” is not a whole number from 0 to 100.`);
      expect(marks.getAttribute("aria-describedby")).toContain(`${marks.id}-error`);
    }
    await user.clear(marks);
    await user.type(marks, "100");
    expect(marks.getAttribute("aria-invalid")).toBeNull();
    expect(errorOf(marks)).toBe("");
    const assignments = screen.getByLabelText("Assignments") as HTMLInputElement;
    await user.type(assignments, "7");
    expect(assignments.value).toBe("7");
    expect(errorOf(assignments)).toBe("“7” is not a whole number from 0 to 6.");
  });

  it("refuses a report with a number out of range on send with the contract's one message, sending nothing", async () => {
    const { server, user } = await openForm();
    await fillReport(user);
    const marks = screen.getByLabelText("Marks") as HTMLInputElement;
    await user.clear(marks);
    await user.type(marks, "101");
    await user.click(screen.getByRole("button", { name: "Submit Report" }));
    await screen.findByText(messages.reportRange);
    expect(messages.reportRange).toBe(
      "Marks and Attendance must be between 0 and 100. Assignments must be between 0 and 6.",
    );
    expect(marks.value).toBe("101");
    expect(marks.getAttribute("aria-invalid")).toBe("true");
    expect(server.calls.some((c) => c.route === "POST /api/reports")).toBe(false);
    // Put right, the field is no longer marked.
    await user.clear(marks);
    await user.type(marks, "100");
    expect(marks.getAttribute("aria-invalid")).toBeNull();
  });

  it("takes a number pasted with a trailing space as that number", async () => {
    const { server, user } = await openForm();
    await fillReport(user);
    const marks = screen.getByLabelText("Marks") as HTMLInputElement;
    await user.clear(marks);
    await user.click(marks);
    await user.paste("85 ");
    expect(marks.value).toBe("85 ");
    expect(marks.getAttribute("aria-invalid")).toBeNull();
    await user.click(screen.getByRole("button", { name: "Submit Report" }));
    await screen.findByText(messages.reportSubmitted);
    const sent = server.calls.filter((c) => c.route === "POST /api/reports");
    expect(sent.map((c) => (c.body as { marks: string }).marks)).toEqual(["85"]);
  });

  it("stops an incomplete report before sending it and marks the fields left", async () => {
    const { server, user } = await openForm();
    await user.type(screen.getByLabelText("Marks"), "80");
    await user.click(screen.getByRole("button", { name: "Submit Report" }));
    await screen.findByText(messages.reportRequired);
    for (const name of ["Course", "Attendance", "Assignments", "Behavior", "Feedback"]) {
      expect(screen.getByLabelText(name).getAttribute("aria-invalid"), name).toBe("true");
    }
    expect(screen.getByLabelText("Marks").getAttribute("aria-invalid")).toBeNull();
    expect(server.calls.some((c) => c.route === "POST /api/reports")).toBe(false);
  });

  it("sends a complete report once with numbers as typed, says so, and empties the form", async () => {
    const { server, user } = await openForm();
    const option = await fillReport(user);
    await user.click(screen.getByRole("button", { name: "Submit Report" }));
    await screen.findByText(messages.reportSubmitted);
    const sent = server.calls.filter((c) => c.route === "POST /api/reports");
    expect(sent.map((c) => c.body)).toEqual([
      {
        studentName: "Ana Lima",
        course: "Mathematics",
        marks: "80",
        attendance: "95",
        assignments: "5",
        behavior: option,
        feedback: "Steady work all term.",
      },
    ]);
    await waitFor(() =>
      expect((screen.getByLabelText("Course") as HTMLInputElement).value).toBe(""),
    );
  });
});
