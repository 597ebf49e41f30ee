import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { useSession } from "../auth/session.tsx";
import { fakeServer, renderPage, testUser } from "../test/render.tsx";
import Profile from "./profile.tsx";

// Who is signed in is kept in one place, the session: a page that reads the account again
// (the profile, the dashboard) updates that one store, so every screen shows the same person.

function SignedInAs() {
  const { user } = useSession();
  return <p data-testid="signed-in-as">{user?.name}</p>;
}

describe("the session is the one store of the signed-in user", () => {
  it("shows a name changed on another device on the profile and everywhere else alike", async () => {
    const before = testUser("student", { name: "Ada" });
    const after = { ...before, name: "Ada Lovelace" };
    localStorage.setItem("token", "test-token");
    let reads = 0;
    const server = fakeServer({
      "GET /api/me": () => ({ body: reads++ === 0 ? before : after }),
    });
    renderPage(
      <>
        <Profile />
        <SignedInAs />
      </>,
      "/profile",
    );
    // The profile's fact and the other screen's name, both read from the one session.
    expect(await screen.findAllByText("Ada Lovelace")).toHaveLength(2);
    expect(screen.getByTestId("signed-in-as").textContent).toBe("Ada Lovelace");
    expect(screen.queryByText("Ada")).toBeNull();
    expect(server.calls.filter((c) => c.route === "GET /api/me")).toHaveLength(2);
  });
});
