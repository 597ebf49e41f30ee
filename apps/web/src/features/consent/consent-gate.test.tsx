import { consentMessages } from "@gradecast/contract/consent";
import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeServer, fieldsRefused, renderPage, signedInAs, testUser } from "../../test/render.tsx";
import { ConsentGate } from "./consent-gate.tsx";

// Before the questionnaire (issue 31): a student who needs a guardian's consent sees, in the
// form's place, what is missing and a form that emails the guardian; the state follows.

const student = testUser("student");
const status = {
  legalBasis: "consent",
  state: "needed",
  digitalConsentAge: 13,
  guardianEmail: null,
  requestedAt: null,
  consentedAt: null,
  withdrawnAt: null,
};
const form = <p>The questionnaire</p>;

describe("the consent gate before the questionnaire", () => {
  it("shows the questionnaire when no consent is needed, or once it is given", async () => {
    for (const state of ["not_needed", "given"]) {
      fakeServer({
        ...signedInAs(student),
        "GET /api/consent/mine": () => ({ body: { ...status, state } }),
      });
      const { unmount } = renderPage(<ConsentGate>{form}</ConsentGate>, "/student-input");
      expect(await screen.findByText("The questionnaire")).toBeTruthy();
      unmount();
    }
  });

  it("asks for the guardian's address, sends it, then says where the link went", async () => {
    const server = fakeServer({
      ...signedInAs(student),
      "GET /api/consent/mine": () => ({ body: status }),
      "POST /api/consent/request": ({ body }) => ({
        status: 202,
        body: {
          ...status,
          state: "pending",
          guardianEmail: (body as { guardianEmail: string }).guardianEmail,
          requestedAt: "2026-11-28T10:00:00.000Z",
        },
      }),
    });
    const { user } = renderPage(<ConsentGate>{form}</ConsentGate>, "/student-input");
    const email = await screen.findByLabelText("Parent's or guardian's email");
    expect(screen.queryByText("The questionnaire")).toBeNull();
    expect(screen.getByText(/You are under 13/)).toBeTruthy();
    await user.type(email, "parent@example.org");
    await user.click(screen.getByRole("button", { name: "Send the link" }));
    expect(await screen.findByText("parent@example.org")).toBeTruthy();
    expect(screen.getByText(/you can send it again after a minute/)).toBeTruthy();
    expect(screen.getByRole("button", { name: "Send a new link" })).toBeTruthy();
    expect(server.calls.filter((c) => c.route === "POST /api/consent/request")).toEqual([
      { route: "POST /api/consent/request", body: { guardianEmail: "parent@example.org" } },
    ]);
  });

  it("writes the server's refusal beside the address (a new link too soon, a bad address)", async () => {
    fakeServer({
      ...signedInAs(student),
      "GET /api/consent/mine": () => ({ body: status }),
      "POST /api/consent/request": fieldsRefused({ guardianEmail: "Enter a valid email address." }),
    });
    const { user } = renderPage(<ConsentGate>{form}</ConsentGate>, "/student-input");
    const email = await screen.findByLabelText("Parent's or guardian's email");
    await user.type(email, "parent@");
    await user.click(screen.getByRole("button", { name: "Send the link" }));
    await waitFor(() => expect(email.getAttribute("aria-invalid")).toBe("true"));
    expect(document.getElementById(`${email.id}-error`)?.textContent).toBe(
      "Enter a valid email address.",
    );
  });

  it("explains a withdrawn consent and keeps the questionnaire closed", async () => {
    fakeServer({
      ...signedInAs(student),
      "GET /api/consent/mine": () => ({
        body: { ...status, state: "withdrawn", guardianEmail: "parent@example.org" },
      }),
    });
    renderPage(<ConsentGate>{form}</ConsentGate>, "/student-input");
    expect(await screen.findByText(consentMessages.withdrawn)).toBeTruthy();
    expect(screen.queryByText("The questionnaire")).toBeNull();
  });
});
