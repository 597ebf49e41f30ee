import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { logIn, signUp } from "./browser-accounts.ts";
import { type OpenPage, openPage, type RunningServer, startServer } from "./harness.ts";

// TEACHER_SIGNUP=approval: a teacher sign-up waits as a student until an admin approves it, and
// the dashboard tells the teacher so instead of only "You are signed in as a Student."
describe("a teacher sign-up waiting for approval", () => {
  let server: RunningServer;
  let browser: OpenPage;
  const who = {
    name: "Wanda Waiting",
    email: `wanda.${Date.now()}@example.org`,
    password: "patience is a virtue 9",
  };

  beforeAll(async () => {
    server = await startServer({ env: { TEACHER_SIGNUP: "approval", RATE_LIMITS: "off" } });
    browser = await openPage(server);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("says on the dashboard that the request waits for an admin", async () => {
    const { page } = browser;
    await signUp(page, who, "Teacher");
    await logIn(page, who);
    await page.goto("/dashboard");
    await page.getByRole("heading", { name: `Welcome, ${who.name}!` }).waitFor();
    const card = await page.locator(".welcome-card").innerText();
    expect(card).toContain("You are signed in as a Student.");
    expect(card).toContain("Your request to be a teacher is waiting for an admin to approve it.");
    expect(browser.consoleErrors).toEqual([]);
  });
});
