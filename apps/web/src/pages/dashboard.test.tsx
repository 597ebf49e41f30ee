import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeServer, renderPage, signedInAs, testUser } from "../test/render.tsx";
import Dashboard from "./dashboard.tsx";

// The dashboard (issue 28): the welcome card and Back to Home button,
// then what to do next for the role. The student's and the teacher's are also driven in
// Chromium (e2e/first-hour-forms.test.ts); the admin's is checked here.

const nextSteps = async () => {
  const heading = await screen.findByRole("heading", { name: "What to do next" });
  return heading.closest("section") as HTMLElement;
};

describe("the dashboard says what to do next", () => {
  it("keeps the welcome card and Back to Home for every role", async () => {
    const admin = testUser("admin");
    fakeServer({
      ...signedInAs(admin),
      "GET /api/admin/users": () => ({ body: { items: [], nextCursor: null, pendingCount: 0 } }),
    });
    renderPage(<Dashboard />, "/dashboard");
    await screen.findByRole("heading", { name: `Welcome, ${admin.name}!` });
    expect(screen.getByRole("link", { name: "Back to Home" }).getAttribute("href")).toBe("/Home");
  });

  it("tells an admin how many teachers wait for approval, and leads to Users", async () => {
    fakeServer({
      ...signedInAs(testUser("admin")),
      "GET /api/admin/users": () => ({ body: { items: [], nextCursor: null, pendingCount: 2 } }),
    });
    renderPage(<Dashboard />, "/dashboard");
    const next = await nextSteps();
    expect(await screen.findByText("2 teachers waiting for your approval.")).toBeTruthy();
    expect(next.querySelector('a[href="/admin/users"]')?.textContent).toBe("Open Users");
  });

  it("tells an admin when no teacher is waiting", async () => {
    fakeServer({
      ...signedInAs(testUser("admin")),
      "GET /api/admin/users": () => ({ body: { items: [], nextCursor: null, pendingCount: 0 } }),
    });
    renderPage(<Dashboard />, "/dashboard");
    expect(await screen.findByText("No teacher is waiting for approval.")).toBeTruthy();
  });

  it("tells a new student to answer the questionnaire and to join a class", async () => {
    fakeServer({
      ...signedInAs(testUser("student")),
      "GET /api/students/mine": () => ({ body: { items: [] } }),
      "GET /api/predictions/mine": () => ({ body: { items: [], latest: null } }),
      "GET /api/classes": () => ({ body: { items: [] } }),
    });
    renderPage(<Dashboard />, "/dashboard");
    const link = await screen.findByRole("link", { name: "Answer the questionnaire" });
    expect(link.getAttribute("href")).toBe("/student-input");
    expect(screen.getByRole("link", { name: "Join a class" }).getAttribute("href")).toBe(
      "/student-dashboard",
    );
  });

  it("says nothing more to a student who has not verified their address yet", async () => {
    fakeServer(signedInAs(testUser("student", { emailVerified: false })));
    renderPage(<Dashboard />, "/dashboard");
    await screen.findByRole("heading", { name: /^Welcome/ });
    expect(screen.queryByRole("heading", { name: "What to do next" })).toBeNull();
  });
});
