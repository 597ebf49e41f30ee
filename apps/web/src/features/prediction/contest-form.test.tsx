import { contestLimit, oversightNotice } from "@gradecast/contract/consent";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeServer, fieldsRefused, renderPage, signedInAs, testUser } from "../../test/render.tsx";
import { ContestForm, OversightNotice } from "./contest-form.tsx";

// Human oversight (issue 31): the notice, and "this prediction is wrong because…" with its
// counter, the server's refusal beside the field, and the saved state that says a new one replaces it.

const student = testUser("student");

describe("contesting a prediction", () => {
  it("says the estimate is not a decision", async () => {
    fakeServer(signedInAs(student));
    renderPage(<OversightNotice />, "/prediction");
    expect(await screen.findByText(oversightNotice)).toBeTruthy();
  });

  it("counts characters, sends the reason for this prediction, and says it was sent", async () => {
    const server = fakeServer({
      ...signedInAs(student),
      "POST /api/predictions/p-1/contest": ({ body }) => ({
        body: {
          predictionId: "p-1",
          reason: (body as { reason: string }).reason,
          createdAt: "2026-11-28T10:00:00.000Z",
        },
      }),
    });
    const { user } = renderPage(<ContestForm predictionId="p-1" />, "/prediction");
    const field = await screen.findByLabelText("Why the estimate is wrong");
    expect(field.getAttribute("maxlength")).toBe(String(contestLimit));
    expect(screen.getByText(`0 of ${contestLimit} characters`)).toBeTruthy();
    await user.type(field, "I was ill");
    expect(screen.getByText(`9 of ${contestLimit} characters`)).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Send to my teachers" }));
    expect(await screen.findByText(/Sent to your class teachers on/)).toBeTruthy();
    expect(screen.getByRole("button", { name: "Send again (replaces it)" })).toBeTruthy();
    expect(server.calls.filter((c) => c.route.startsWith("POST"))).toEqual([
      { route: "POST /api/predictions/p-1/contest", body: { reason: "I was ill" } },
    ]);
  });

  it("writes the server's refusal beside the field", async () => {
    fakeServer({
      ...signedInAs(student),
      "POST /api/predictions/p-1/contest": fieldsRefused({
        reason: "Say why the estimate is wrong.",
      }),
    });
    const { user } = renderPage(<ContestForm predictionId="p-1" />, "/prediction");
    const field = await screen.findByLabelText("Why the estimate is wrong");
    fireEvent.change(field, { target: { value: "   " } });
    await user.click(screen.getByRole("button", { name: "Send to my teachers" }));
    await waitFor(() => expect(field.getAttribute("aria-invalid")).toBe("true"));
    expect(document.getElementById(`${field.id}-error`)?.textContent).toBe(
      "Say why the estimate is wrong.",
    );
  });
});
