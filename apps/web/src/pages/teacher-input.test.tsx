import { messages } from "@gradecast/contract/messages";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeServer, renderPage, signedInAs, testUser } from "../test/render.tsx";
import TeacherInput from "./teacher-input.tsx";

// The teacher's report form and its input masks (SPEC.md section 5): a keystroke the mask
// refuses changes nothing and the rule appears beside the field; a paste that breaks it is
// refused whole; an incomplete form is stopped before anything is sent; a complete one is sent
// once and the form starts over.
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

/** The text in the status line under a numeric field, where a refused keystroke is explained. */
const noticeOf = (input: HTMLElement) =>
  document.getElementById(`${input.id}-hint`)?.querySelector("[role=status]")?.textContent ?? "";

describe("the teacher report form", () => {
  it("keeps marks to a whole number up to 100: a refused keystroke changes nothing and says why", async () => {
    const { user } = await openForm();
    const marks = screen.getByLabelText("Marks") as HTMLInputElement;
    await user.type(marks, "10");
    expect(marks.value).toBe("10");
    expect(noticeOf(marks)).toBe("");
    await user.type(marks, "1"); // 101 is over the top
    expect(marks.value).toBe("10");
    expect(noticeOf(marks)).toBe(messages.maskWholeNumber(0, 100));
    await user.type(marks, "x");
    expect(marks.value).toBe("10");
    // The rule goes when the field is next entered.
    await user.click(screen.getByLabelText("Course"));
    await user.click(marks);
    expect(noticeOf(marks)).toBe("");
  });

  it("keeps assignments to one digit from 0 to 6", async () => {
    const { user } = await openForm();
    const assignments = screen.getByLabelText("Assignments") as HTMLInputElement;
    await user.type(assignments, "7");
    expect(assignments.value).toBe("");
    expect(noticeOf(assignments)).toBe(messages.maskWholeNumber(0, 6));
    await user.type(assignments, "6");
    expect(assignments.value).toBe("6");
  });

  it("refuses a paste that breaks the mask whole, never cutting 1000 down to 100", async () => {
    const { user } = await openForm();
    const attendance = screen.getByLabelText("Attendance") as HTMLInputElement;
    await user.click(attendance);
    await user.paste("1000");
    expect(attendance.value).toBe("");
    expect(noticeOf(attendance)).toBe(messages.maskPasteRefused(messages.maskWholeNumber(0, 100)));
    await user.paste("95");
    expect(attendance.value).toBe("95");
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
    await user.type(screen.getByRole("combobox", { name: "Student name" }), "Ana Lima");
    await user.type(screen.getByLabelText("Course"), "Mathematics");
    await user.type(screen.getByLabelText("Marks"), "80");
    await user.type(screen.getByLabelText("Attendance"), "95");
    await user.type(screen.getByLabelText("Assignments"), "5");
    const behavior = screen.getByLabelText("Behavior") as HTMLSelectElement;
    const option = behavior.options[1]?.value ?? "";
    fireEvent.change(behavior, { target: { value: option } });
    await user.type(screen.getByLabelText("Feedback"), "Steady work all term.");
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
