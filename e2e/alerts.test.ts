import { axeViolations } from "./a11y.ts";
import { classWithStudents, post } from "./api-calls.ts";
import { logIn, person } from "./browser-accounts.ts";
import { describe, expect, test } from "./fixtures.ts";
import { saveScreenshot } from "./harness.ts";
import { doingWell, struggling } from "./sample-answers.ts";

// Early warning in Chromium (issue 32): a student's new prediction crosses into risk; their
// teacher sees the unread count in the header, opens the notifications, goes to the class,
// marks the flag "acknowledged" and starts an intervention plan.
const teacher = person("Tess Teacher", "alerts tess 7");
const amy = person("Amy Crossing", "alerts amy 7");

test.override("serverEnv", { TEACHER_SIGNUP: "open", RATE_LIMITS: "off" });

describe("early warning", () => {
  let amyToken = "";
  test.beforeAll(async ({ server }) => {
    const { tokens } = await classWithStudents(server, teacher, "Maths 12C", [
      [amy, { ...doingWell, subject: "mat" }],
    ]);
    amyToken = tokens[0]!;
  }, 180_000);

  test("a crossing reaches the teacher, who acknowledges the flag and starts a plan", async ({
    page,
    browser,
    server,
  }) => {
    await logIn(page, teacher);
    // The header of the app's pages (the Home page has its own).
    await page.goto("/classes");
    const bell = page.getByRole("link", { name: /^Notifications/ });
    await bell.waitFor();
    expect(await page.getByTestId("unread-count").count()).toBe(0);

    // Amy answers again, worse: her prediction crosses into risk.
    await post(server, "/api/predict", struggling, amyToken);
    await page.reload();
    await page.getByTestId("unread-count").waitFor();
    expect(await page.getByTestId("unread-count").innerText()).toMatch(/^1/);

    await bell.click();
    await page.getByRole("heading", { level: 1, name: "Notifications" }).waitFor();
    const alert = page.getByRole("link", { name: "Amy Crossing (Maths 12C) is now at risk" });
    await alert.waitFor();
    expect(await page.locator(".notification").innerText()).toMatch(/Reasons:/);
    expect(await page.locator(".notification").innerText()).not.toMatch(
      /Going out|romantic relationship|Current health|Family relationships/,
    );
    expect(await axeViolations(page), "notifications").toEqual([]);
    await saveScreenshot(page, "notifications-1366");

    await alert.click();
    await page.getByRole("heading", { level: 1, name: "Maths 12C" }).waitFor();
    const card = page.locator("section.card", {
      has: page.getByRole("heading", { name: "Flags and intervention plans" }),
    });
    const row = card.getByTestId("flag-row").filter({ hasText: amy.name });
    await row.getByLabel(`Judge the flag of ${amy.name}`).selectOption("acknowledged");
    await row.getByRole("button", { name: /Save judgement/ }).click();
    await row.locator(".tag-ok", { hasText: "Acknowledged" }).waitFor();

    await row.getByRole("button", { name: /Start a plan/ }).click();
    const form = card.locator(".plan-form");
    await form.getByLabel("Tier").selectOption("2");
    await form.getByLabel("Goal").fill("Weekly catch-up on algebra with Amy");
    await form.getByRole("button", { name: "Start plan" }).click();
    await card.getByText(`The plan for ${amy.name} was started.`).waitFor();
    const plan = card.getByTestId("plan-row").filter({ hasText: amy.name });
    await plan.waitFor();
    expect(await plan.innerText()).toMatch(/Tier 2 · Owner Tess Teacher/);
    // At a phone's width the flags and plans stay readable without scrolling sideways.
    await page.setViewportSize({ width: 360, height: 740 });
    await plan.scrollIntoViewIfNeeded();
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1),
    ).toBe(false);
    await saveScreenshot(page, "flags-and-plans-360");
    expect(browser.consoleErrors).toEqual([]);
  });
});
