import { messages } from "@gradecast/contract/messages";
import { oidcRefusals } from "@gradecast/contract/oidc";
import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeServer, renderPage, testUser } from "../test/render.tsx";
import Login from "./login.tsx";

// The login form as a person uses it: a wrong password is said on the form and keeps them on it;
// a right one takes them home; an account with two-step login asks for the code next.

type User = ReturnType<typeof renderPage>["user"];

/** Types the email and password and presses Login. */
async function logIn(user: User, email: string, password: string) {
  await user.type(screen.getByLabelText("Email"), email);
  await user.type(screen.getByLabelText("Password"), password);
  await user.click(screen.getByRole("button", { name: "Login" }));
}

describe("the login page", () => {
  it("says why a sign-in failed, on the form, and stays on the login page", async () => {
    const server = fakeServer({
      "POST /api/auth/login": () => ({
        status: 401,
        body: { error: { code: "invalid_credentials", message: "Invalid email or password." } },
      }),
    });
    await logIn(renderPage(<Login />, "/login").user, "ana@example.org", "not her password");
    expect(await screen.findByRole("alert")).toHaveProperty(
      "textContent",
      "Invalid email or password.",
    );
    expect(screen.getByRole("heading", { level: 1, name: "Login" })).toBeTruthy();
    expect(server.calls.at(-1)).toEqual({
      route: "POST /api/auth/login",
      body: { email: "ana@example.org", password: "not her password" },
    });
  });

  it("takes a person with the right password to the address they asked for", async () => {
    const me = testUser("student");
    fakeServer({
      "POST /api/auth/login": () => ({ body: { token: "t1", expiresIn: 900, user: me } }),
      "GET /api/me": () => ({ body: me }),
    });
    const { user } = renderPage(<Login />, "/login?next=/profile");
    expect(screen.getByText(messages.signInRequired)).toBeTruthy();
    await logIn(user, me.email, "correct horse battery");
    await waitFor(() => expect(screen.getByTestId("location").textContent).toBe("/profile"));
  });

  it("asks for the code of an account with two-step login, says a wrong one beside it, and can go back", async () => {
    fakeServer({
      "POST /api/auth/login": () => ({
        body: { mfaRequired: true, challenge: "c1" },
      }),
      "POST /api/auth/mfa": () => ({
        status: 401,
        body: { error: { code: "invalid_code", message: "That code is not right." } },
      }),
    });
    const { user } = renderPage(<Login />, "/login");
    await logIn(user, "ada@example.org", "a long admin phrase");
    await screen.findByRole("heading", { level: 1, name: "Two-step login" });
    const code = screen.getByLabelText("Code");
    await user.type(code, "123456");
    await user.click(screen.getByRole("button", { name: "Verify" }));
    // The refusal is written beside the code field and tied to it for screen readers.
    await screen.findByText("That code is not right.");
    expect(code.getAttribute("aria-invalid")).toBe("true");
    expect(code.getAttribute("aria-describedby")).toContain(`${code.id}-error`);
    await user.click(screen.getByRole("button", { name: "Use another account" }));
    expect(screen.getByRole("heading", { level: 1, name: "Login" })).toBeTruthy();
  });

  describe("with the school's identity provider (issue 34)", () => {
    const setup = { adminExists: true, teacherSignup: "approval", oidcName: "Test School" };

    it("offers the provider's button and says why the provider's sign-in was refused", async () => {
      fakeServer({ "GET /api/setup": () => ({ body: setup }) });
      renderPage(<Login />, "/login?oidc_error=domain_not_allowed");
      const button = await screen.findByRole("link", { name: "Sign in with Test School" });
      expect(button.getAttribute("href")).toBe("/api/auth/oidc/start");
      expect(screen.getByText(oidcRefusals.domain_not_allowed)).toBeTruthy();
    });

    it("back from the provider, trades the refresh cookie for the session and goes home", async () => {
      const me = testUser("student");
      const server = fakeServer({
        "GET /api/setup": () => ({ body: setup }),
        "POST /api/auth/refresh": () => ({ body: { token: "t1", expiresIn: 900, user: me } }),
        "GET /api/me": () => ({ body: me }),
      });
      renderPage(<Login />, "/login?oidc=signed_in");
      await waitFor(() => expect(screen.getByTestId("location").textContent).toBe("/Home"));
      expect(server.calls.some((c) => c.route === "POST /api/auth/refresh")).toBe(true);
    });
  });
});
