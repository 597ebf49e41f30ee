import { type ClassView, classMessages, type MyClassInvitation } from "@gradecast/contract/classes";
import { fireEvent, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeServer, renderPage, signedInAs, testUser } from "../../test/render.tsx";
import { JoinClass } from "./join-class.tsx";
import { invitationTo, joinedClass } from "./join-class-fixtures.ts";

// A student's classes on the Student Dashboard (issue 26): the classes that invited them, with
// Accept and Decline (nothing joins without them), and Leave on each class, asked first.
const invitation = invitationTo("Maths 10B", "Tomas Teacher");
const joined = joinedClass("Portuguese 11A", { name: "Rita Teacher", email: "rita@example.org" });

function school(state: { invitations: MyClassInvitation[]; classes: ClassView[] }) {
  return fakeServer({
    ...signedInAs(testUser("student")),
    "GET /api/me/class-invitations": () => ({ body: { items: state.invitations } }),
    "GET /api/classes": () => ({ body: { items: state.classes } }),
    "POST /api/classes/c1/invitation": () => {
      state.invitations = [];
      state.classes = [...state.classes, { ...joined, id: "c1", name: "Maths 10B" }];
      return { body: { class: state.classes.at(-1), message: classMessages.invitationAccepted } };
    },
    "DELETE /api/classes/c1/invitation": () => {
      state.invitations = [];
      return { status: 204 };
    },
    "DELETE /api/classes/c2/enrolment": () => {
      state.classes = state.classes.filter((c) => c.id !== "c2");
      return { status: 204 };
    },
  });
}

describe("a student's class invitations and classes", () => {
  it("lists a pending invitation and accepts it: the class joins the student's list", async () => {
    const server = school({ invitations: [invitation], classes: [] });
    renderPage(<JoinClass />, "/student-dashboard");
    const card = (await screen.findByRole("heading", { name: "Class invitations" })).closest(
      "section",
    ) as HTMLElement;
    expect(within(card).getByText("Maths 10B")).toBeTruthy();
    expect(within(card).getByText(/Tomas Teacher/)).toBeTruthy();
    fireEvent.click(
      within(card).getByRole("button", { name: "Accept the invitation to Maths 10B" }),
    );
    await screen.findByText(`${classMessages.invitationAccepted} Maths 10B`);
    expect(server.calls.map((c) => c.route)).toContain("POST /api/classes/c1/invitation");
    await screen.findByRole("button", { name: "Leave Maths 10B" });
    expect(screen.queryByRole("button", { name: /Accept the invitation/ })).toBeNull();
  });

  it("declines an invitation without joining", async () => {
    const server = school({ invitations: [invitation], classes: [] });
    renderPage(<JoinClass />, "/student-dashboard");
    fireEvent.click(
      await screen.findByRole("button", { name: "Decline the invitation to Maths 10B" }),
    );
    await screen.findByText(`${classMessages.invitationDeclined} Maths 10B`);
    const routes = server.calls.map((c) => c.route);
    expect(routes).toContain("DELETE /api/classes/c1/invitation");
    expect(routes).not.toContain("POST /api/classes/c1/invitation");
  });

  it("shows no invitations card when none waits, and leaves a class only after confirming", async () => {
    const server = school({ invitations: [], classes: [joined] });
    renderPage(<JoinClass />, "/student-dashboard");
    fireEvent.click(await screen.findByRole("button", { name: "Leave Portuguese 11A" }));
    expect(screen.queryByRole("heading", { name: "Class invitations" })).toBeNull();
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByText("Leave Portuguese 11A?")).toBeTruthy();
    expect(server.calls.map((c) => c.route)).not.toContain("DELETE /api/classes/c2/enrolment");
    fireEvent.click(within(dialog).getByRole("button", { name: "Leave class" }));
    await screen.findByText(`${classMessages.leftClass} Portuguese 11A`);
    expect(server.calls.map((c) => c.route)).toContain("DELETE /api/classes/c2/enrolment");
    expect(screen.queryByRole("button", { name: "Leave Portuguese 11A" })).toBeNull();
  });
});
