import { securityMessages } from "@gradecast/contract/account-security";
import { modelSetupLabels, riskMessages } from "@gradecast/contract/class-risk";
import type { Page } from "playwright-core";
import { makeTeacher, searchUsers, signedOut } from "./admin-steps.ts";
import { classWithStudents } from "./api-calls.ts";
import { enrolMfa, logIn, type MfaPerson, person, totpCode } from "./browser-accounts.ts";
import { describe, expect, test } from "./fixtures.ts";
import { sampleAnswers } from "./sample-answers.ts";

// Issue 28, what an admin and a teacher trip over in their first hour, at 1366 px: an admin
// without two-step login who opens Users is told why on Settings and taken to the card, and a
// wrong first code does not speak of recovery codes yet; the risk list keeps its words whole and
// says what a model and a missing measure mean; a user row is one line; the audit log speaks
// in words and names.
const newAdmin = person("Nia Newadmin", "a brand new admin phrase 1");
const admin: MfaPerson = person("Ada Admin", "the admin of the school 2");
const teacher = person("Rita Teacher", "first hour rita 3");
const amy = person("Amy Early", "first hour amy 4");
const ben = person("Ben Later", "first hour ben 5");
let classId = "";

test.override("serverEnv", { TEACHER_SIGNUP: "open", RATE_LIMITS: "off" });
test.override("commandLineAccounts", [newAdmin, admin]);

/** Words of the element's text that the layout split over two lines. */
const brokenWords = (page: Page, selector: string) =>
  page.evaluate((sel) => {
    const broken: string[] = [];
    for (const el of Array.from(document.querySelectorAll(sel))) {
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? "";
        // A break after a hyphen ("Follow-|up") is a line break, not a word cut in two.
        for (const m of text.matchAll(/[^\s-]+/g)) {
          const range = document.createRange();
          range.setStart(node, m.index);
          range.setEnd(node, m.index + m[0].length);
          const lines = new Set(
            Array.from(range.getClientRects())
              .filter((r) => r.width > 0)
              .map((r) => Math.round(r.top)),
          );
          if (lines.size > 1) broken.push(m[0]);
        }
      }
    }
    return broken;
  }, selector);

/** The teacher, signed in afresh, on the class page. */
async function openClassAsTeacher(page: Page) {
  await signedOut(page);
  await logIn(page, teacher);
  await page.goto(`/classes/${classId}`);
  await page.getByRole("heading", { level: 1, name: "Maths 11A" }).waitFor();
}

describe("an admin's and a teacher's first hour (1366 px)", () => {
  test.beforeAll(async ({ server }) => {
    await enrolMfa(server.url, admin);
    // Amy early in the term (first grade only), Ben later (both grades).
    const { created } = await classWithStudents(server, teacher, "Maths 11A", [
      [amy, { ...sampleAnswers, G1: "7", G2: null, subject: "mat" }],
      [ben, { ...sampleAnswers, G1: "14", G2: "15", subject: "mat" }],
    ]);
    classId = created.id;
  }, 180_000);

  test("an admin without two-step login who opens Users is told why, at the card; a wrong first code speaks of no recovery code", async ({
    page,
    browser,
  }) => {
    await signedOut(page);
    await logIn(page, newAdmin);
    await page.goto("/admin/users");
    await page.waitForURL(/\/settings/);
    const notice = page.locator("#mfa-required");
    await notice.waitFor();
    expect(await notice.innerText()).toContain(securityMessages.mfaRequiredNotice);
    // At the top: right under the page's heading, the card to turn it on next.
    const order = await page.evaluate(() => {
      const main = document.querySelector("main .stack");
      return Array.from(main?.children ?? [])
        .slice(0, 3)
        .map((el) => el.id || el.className);
    });
    expect(order[1]).toBe("mfa-required");
    expect(order[2]).toBe("mfa");
    const setUp = page.getByRole("button", { name: "Set up two-step login" });
    await expect.poll(() => setUp.evaluate((el) => el === document.activeElement)).toBe(true);
    const top = await notice.boundingBox();
    expect(top && top.y >= 0 && top.y < 900).toBe(true);

    await setUp.click();
    const secret = (await page.getByTestId("mfa-secret").innerText()).replace(/\s/g, "");
    const field = page.getByLabel("2. Enter the 6-digit code the app shows");
    const right = totpCode(secret);
    await field.fill(right === "000000" ? "111111" : "000000");
    await page.getByRole("button", { name: "Turn on" }).click();
    await page.getByText(securityMessages.mfaEnrolmentInvalidCode).waitFor();
    expect(await page.locator("#mfa").innerText()).not.toMatch(/recovery code/i);
    // The right code: the recovery codes are shown (and stay: the card is not moved away).
    await field.fill(totpCode(secret));
    await page.getByRole("button", { name: "Turn on" }).click();
    await page.getByTestId("recovery-codes").waitFor();
    expect(await notice.count()).toBe(0);
    await page.waitForTimeout(300);
    expect(await page.getByTestId("recovery-codes").count()).toBe(1);
    expect(browser.consoleErrors.filter((e) => !/401|403|Failed to load/.test(e))).toEqual([]);
  });

  test("the risk list keeps words whole, names the model in words and says why a measure is missing", async ({
    page,
  }) => {
    await openClassAsTeacher(page);
    const list = page.locator("section.card", {
      has: page.getByRole("heading", { name: "Risk list", exact: true }),
    });
    await list.getByTestId("risk-counts").waitFor();
    // The empty status under the class title is a live region without a box.
    const status = page.locator("main .stack > [role=status]").first();
    expect(await status.innerText()).toBe("");
    expect((await status.boundingBox())?.height ?? 0).toBe(0);

    const amyRow = list.getByTestId("risk-row").filter({ hasText: amy.name });
    const benRow = list.getByTestId("risk-row").filter({ hasText: ben.name });
    expect(await amyRow.locator('[data-label="Model"]').innerText()).toBe(modelSetupLabels.B);
    expect(await benRow.locator('[data-label="Model"]').innerText()).toBe(modelSetupLabels.A);
    expect(await list.innerText()).not.toMatch(/\bModel: [ABC]\b|^[ABC]$/m);
    expect(await brokenWords(page, ".risk-table th, .risk-table td")).toEqual([]);

    // A prediction made before the two-part model (no risk of not sitting, no model): as the
    // server answers for such a row.
    await page.route("**/api/classes/*/risk", async (route) => {
      const res = await route.fetch();
      const body = (await res.json()) as {
        items: { name: string; modelSetup: unknown; noFinalScoreRisk: unknown }[];
      };
      for (const item of body.items) {
        if (item.name === amy.name)
          Object.assign(item, { modelSetup: null, noFinalScoreRisk: null });
      }
      await route.fulfill({ response: res, json: body });
    });
    await page.reload();
    await list.getByTestId("risk-counts").waitFor();
    for (const column of ["Model", "Risk of not sitting the final"]) {
      const cell = amyRow.locator(`[data-label="${column}"]`);
      expect(await cell.innerText()).toBe(`— ${riskMessages.beforeMeasure}`);
    }
    expect(await brokenWords(page, ".risk-table th, .risk-table td")).toEqual([]);
    await page.unroute("**/api/classes/*/risk");
  });

  test("a user row is one line with its actions in a menu; the audit log names actions and people", async ({
    page,
  }) => {
    await signedOut(page);
    await logIn(page, admin);
    await page.goto("/admin/users");
    const row = await searchUsers(page, amy.email, amy.name);
    await row.waitFor();
    await expect.poll(() => page.getByRole("row").count()).toBe(2);
    const height = (await row.boundingBox())?.height ?? 0;
    expect(height).toBeGreaterThan(0);
    expect(height).toBeLessThan(100);
    expect(await row.getByRole("button").count()).toBe(0);
    await makeTeacher(row, amy.name);

    await page.goto("/admin/audit");
    const entries = page.locator("tbody tr");
    await entries.first().waitFor();
    const changed = entries.filter({ hasText: "Role changed" }).first();
    await changed.waitFor();
    expect(await changed.locator('[data-label="Who"]').innerText()).toContain(admin.name);
    expect(await changed.locator('[data-label="Target"]').innerText()).toContain(amy.name);
    const text = await page.locator("table").innerText();
    expect(text).not.toMatch(/admin\.role_changed|auth\.login/);
    expect(text).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
    expect(text).not.toMatch(/pendingRole|wrong_password/);
  });

  test("every signed-in page links to Help, which covers classes, predictions and privacy", async ({
    page,
  }) => {
    await openClassAsTeacher(page);
    await page.getByRole("banner").getByRole("link", { name: "Help" }).click();
    await page.getByRole("heading", { level: 1, name: "Help" }).waitFor();
    for (const topic of ["Classes", "Predictions", "Privacy", "Passwords and your account"]) {
      await page.getByRole("heading", { level: 2, name: topic }).waitFor();
    }
    await page.getByText("Who sees my answers?").waitFor();
  });
});
