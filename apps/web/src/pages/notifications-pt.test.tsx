import { screen } from "@testing-library/react";
import { describe, expect, test } from "vitest";
import { fakeServer, renderAs, renderPage, testUser } from "../test/render.tsx";
import Notifications from "./notifications.tsx";
import Profile from "./profile.tsx";
import Unsubscribe from "./unsubscribe.tsx";

// Issue 33: the notifications, the digest setting and the unsubscribe page in European Portuguese.
const teacher = testUser("teacher", { locale: "pt-PT" });

describe("the notifications in Portuguese", () => {
  test("the list says how many are unread and writes scores with a decimal comma", async () => {
    renderAs(teacher, <Notifications />, "/notifications", {
      "/api/notifications": {
        unread: 1,
        items: [
          {
            id: "n1",
            kind: "risk_up",
            title: "Ada Lovelace (10A) is now at risk",
            student: { id: "s1", name: "Ada Lovelace" },
            class: { id: "c1", name: "10A" },
            prediction: 8.46,
            noFinalScoreRisk: null,
            reasons: [],
            createdAt: "2026-11-27T10:00:00.000Z",
            readAt: null,
          },
        ],
      },
    });
    expect(await screen.findByRole("heading", { level: 1, name: "Notificações" })).toBeTruthy();
    expect(await screen.findByText("1 por ler")).toBeTruthy();
    expect(screen.getByText("Nota final prevista 8,5")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Marcar todas como lidas" })).toBeTruthy();
  });

  test("the profile's digest choice is in Portuguese", async () => {
    renderAs(teacher, <Profile />, "/profile", { "/api/me/digest": { digest: "weekly" } });
    expect(await screen.findByRole("heading", { level: 1, name: "Perfil" })).toBeTruthy();
    expect(
      await screen.findByLabelText("Enviar-me um resumo das minhas notificações"),
    ).toBeTruthy();
    expect(screen.getByRole("option", { name: "Semanal (às segundas-feiras)" })).toBeTruthy();
    expect(screen.getByText("Professor")).toBeTruthy();
  });

  test("the unsubscribe page tells a link is incomplete in Portuguese", async () => {
    localStorage.setItem("gradecast:locale", "pt-PT");
    fakeServer({});
    renderPage(<Unsubscribe />, "/unsubscribe");
    expect(
      await screen.findByText(
        "Este link para cancelar a subscrição está incompleto. Abra de novo o link do email.",
      ),
    ).toBeTruthy();
  });
});
