import { messages } from "@gradecast/contract/messages";
import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { localeKey } from "../i18n/locale.tsx";
import { fakeServer, fieldsRefused, renderPage, watchAlerts } from "../test/render.tsx";
import Register from "./register.tsx";

// The sign-up form: the server's refusal of a field is written beside that field, and a sign-up
// that worked says so and leads to the login page with what was typed sent once.
describe("the sign-up page", () => {
  it("writes the server's message beside the field it is about, and nowhere else", async () => {
    fakeServer({
      "POST /api/auth/register": fieldsRefused({
        email: "This email address is already registered.",
      }),
    });
    const { user } = renderPage(<Register />, "/register");
    await user.type(screen.getByLabelText("Name"), "Ana Lima");
    await user.type(screen.getByLabelText("Email"), "ana@example.org");
    await user.type(screen.getByLabelText("Password"), "a long enough phrase");
    await user.click(screen.getByRole("button", { name: "Sign Up" }));
    const email = screen.getByLabelText("Email");
    await waitFor(() => expect(email.getAttribute("aria-invalid")).toBe("true"));
    const described = document.getElementById(`${email.id}-error`);
    expect(described?.textContent).toBe("This email address is already registered.");
    expect(screen.getByLabelText("Name").getAttribute("aria-invalid")).toBeNull();
    expect(screen.getByRole("heading", { level: 1, name: "Sign Up" })).toBeTruthy();
  });

  it("signs a teacher up once with the chosen role, says so, and opens the login page", async () => {
    const alerts = watchAlerts();
    const server = fakeServer({
      "POST /api/auth/register": ({ body }) => ({ status: 201, body: { user: body } }),
    });
    const { user } = renderPage(<Register />, "/register");
    await user.type(screen.getByLabelText("Name"), "Tom Reyes");
    await user.type(screen.getByLabelText("Email"), "tom@example.org");
    await user.type(screen.getByLabelText("Password"), "teaching since 2010");
    await user.selectOptions(screen.getByLabelText("Role"), "Teacher");
    await user.click(screen.getByRole("button", { name: "Sign Up" }));
    await waitFor(() => expect(screen.getByTestId("location").textContent).toBe("/login"));
    expect(alerts).toEqual([messages.registrationSuccess]);
    expect(server.calls.filter((c) => c.route === "POST /api/auth/register")).toEqual([
      {
        route: "POST /api/auth/register",
        body: {
          name: "Tom Reyes",
          email: "tom@example.org",
          password: "teaching since 2010",
          role: "teacher",
        },
      },
    ]);
  });

  describe("where the legal basis is consent (issue 31)", () => {
    const setup = {
      adminExists: true,
      teacherSignup: "approval",
      oidcName: null,
      legalBasis: "consent",
    };

    it("asks a student's date of birth, sends it, and writes the server's refusal beside it", async () => {
      const server = fakeServer({
        "GET /api/setup": () => ({ body: setup }),
        "POST /api/auth/register": fieldsRefused({
          dateOfBirth: "Enter a real date of birth, not in the future.",
        }),
      });
      const { user } = renderPage(<Register />, "/register");
      const born = await screen.findByLabelText("Date of birth");
      expect(screen.getByRole("link", { name: "privacy notice" }).getAttribute("href")).toBe(
        "/privacy",
      );
      await user.type(screen.getByLabelText("Name"), "Rita Sousa");
      await user.type(screen.getByLabelText("Email"), "rita@example.org");
      await user.type(screen.getByLabelText("Password"), "a long enough phrase");
      await user.type(born, "2014-03-09");
      await user.click(screen.getByRole("button", { name: "Sign Up" }));
      await waitFor(() => expect(born.getAttribute("aria-invalid")).toBe("true"));
      expect(document.getElementById(`${born.id}-error`)?.textContent).toBe(
        "Enter a real date of birth, not in the future.",
      );
      expect(server.calls.find((c) => c.route === "POST /api/auth/register")?.body).toMatchObject({
        role: "student",
        dateOfBirth: "2014-03-09",
      });
    });

    it("does not ask a teacher", async () => {
      fakeServer({ "GET /api/setup": () => ({ body: setup }) });
      const { user } = renderPage(<Register />, "/register");
      await screen.findByLabelText("Date of birth");
      await user.selectOptions(screen.getByLabelText("Role"), "Teacher");
      expect(screen.queryByLabelText("Date of birth")).toBeNull();
    });

    it("does not ask under the public-task basis", async () => {
      fakeServer({ "GET /api/setup": () => ({ body: { ...setup, legalBasis: "public-task" } }) });
      renderPage(<Register />, "/register");
      await screen.findByRole("heading", { level: 1, name: "Sign Up" });
      await new Promise((r) => setTimeout(r, 50));
      expect(screen.queryByLabelText("Date of birth")).toBeNull();
    });
  });

  it("speaks European Portuguese when that is the page's language", async () => {
    localStorage.setItem(localeKey, "pt-PT");
    const alerts = watchAlerts();
    fakeServer({
      "POST /api/auth/register": ({ body }) => ({ status: 201, body: { user: body } }),
    });
    const { user } = renderPage(<Register />, "/register");
    expect(await screen.findByRole("heading", { level: 1, name: "Registar" })).toBeTruthy();
    expect(screen.getByRole("link", { name: "aviso de privacidade" })).toBeTruthy();
    await user.type(screen.getByLabelText("Nome"), "Ana Lima");
    await user.type(screen.getByLabelText("Email"), "ana@example.org");
    await user.type(screen.getByLabelText("Palavra-passe"), "uma frase bem comprida");
    expect(screen.getByRole("option", { name: "Aluno" })).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Registar" }));
    await waitFor(() => expect(alerts).toEqual(["Registo efetuado com sucesso!"]));
  });
});
