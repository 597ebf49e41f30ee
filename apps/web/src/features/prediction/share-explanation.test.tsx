import { riskMessages, type Sharing } from "@gradecast/contract/class-risk";
import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeServer, renderPage, signedInAs, testUser } from "../../test/render.tsx";
import { ShareExplanation } from "./share-explanation.tsx";

// Sharing is with the teachers it was given to (issue 26): the card names them, and a teacher
// who came since (a class joined, a co-teacher added) is named apart, with a way to include them.
describe("what a student's teachers see", () => {
  it("names whom the explanation is shared with, and shares again with a new teacher", async () => {
    let sharing: Sharing = {
      shareExplanation: true,
      changedAt: "2026-11-20T10:00:00.000Z",
      sharedWith: [{ id: "t1", name: "Ana Teacher" }],
      notSharedWith: [{ id: "t2", name: "Rui Teacher" }],
    };
    const server = fakeServer({
      ...signedInAs(testUser("student")),
      "GET /api/me/sharing": () => ({ body: sharing }),
      "PATCH /api/me/sharing": () => {
        sharing = { ...sharing, sharedWith: [...sharing.sharedWith, ...sharing.notSharedWith] };
        sharing.notSharedWith = [];
        return { body: sharing };
      },
    });
    renderPage(<ShareExplanation />, "/prediction");
    await screen.findByText("Shared with: Ana Teacher.");
    expect(screen.getByText(/Not shared with Rui Teacher/).textContent).toContain(
      riskMessages.sharingNewTeachers,
    );
    fireEvent.click(screen.getByRole("button", { name: "Share with them too" }));
    await screen.findByText("Shared with: Ana Teacher, Rui Teacher.");
    expect(server.calls.find((c) => c.route === "PATCH /api/me/sharing")?.body).toEqual({
      shareExplanation: true,
    });
    expect(screen.queryByRole("button", { name: "Share with them too" })).toBeNull();
  });

  it("names nobody while the student does not share", async () => {
    fakeServer({
      ...signedInAs(testUser("student")),
      "GET /api/me/sharing": () => ({
        body: {
          shareExplanation: false,
          changedAt: null,
          sharedWith: [],
          notSharedWith: [{ id: "t1", name: "Ana Teacher" }],
        },
      }),
    });
    renderPage(<ShareExplanation />, "/prediction");
    await screen.findByLabelText("Share my full explanation with my teachers");
    expect(screen.queryByText(/Shared with/)).toBeNull();
    expect(screen.queryByText(/Not shared with/)).toBeNull();
  });
});
