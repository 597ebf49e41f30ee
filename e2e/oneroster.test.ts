import { oneRosterMessages as m } from "@gradecast/contract/oneroster";
import type { Page } from "playwright-core";
import * as b from "../apps/server/test/support/oneroster-bundle.ts";
import { axeViolations } from "./a11y.ts";
import { enrolMfa, logIn, type MfaPerson, person } from "./browser-accounts.ts";
import { describe, expect, test } from "./fixtures.ts";
import { saveScreenshot } from "./harness.ts";

// The admin's OneRoster import in Chromium (issue 34): an admin uploads a bundle built here (a
// maths class, its teacher and two students, none with an account yet), sees the preview, imports
// it and sees what was done; a bundle with a bad line is refused with its file, line and reason.
// The screen is checked with axe at a phone's width and a laptop's.
const admin: MfaPerson = person("Olga Roster", "a roster of passphrases");

test.override("serverEnv", { RATE_LIMITS: "off", ONEROSTER_SUBJECTS: "MAT101=mat,POR12=por" });
test.override("commandLineAccounts", [admin]);

const stamp = Date.now().toString(36);
const school = (enrolments: string[]) =>
  b.zipBundle({
    academicSessions: b.schoolYear2027,
    courses: b.csv(b.headers.courses, [b.courseLine("c1", "Maths", "MAT101")]),
    classes: b.csv(b.headers.classes, [b.classLine("k1", "Maths 10A", "c1")]),
    users: b.csv(b.headers.users, [
      b.userLine("t1", "Tess", "Teacher", `tess.${stamp}@school.test`),
      b.userLine("s1", "Sam", "Student", `sam.${stamp}@school.test`),
      b.userLine("s2", "Nia", "New", `nia.${stamp}@school.test`),
    ]),
    enrollments: b.csv(b.headers.enrollments, enrolments),
  });
const good = school([
  b.enrolLine("e1", "k1", "t1", "teacher"),
  b.enrolLine("e2", "k1", "s1", "student"),
  b.enrolLine("e3", "k1", "s2", "student"),
]);
const bad = school([
  b.enrolLine("e1", "k1", "t1", "teacher"),
  b.enrolLine("e2", "k9", "s1", "student"),
]);

async function choose(page: Page, name: string, zip: Buffer) {
  await page
    .getByLabel("ZIP bundle")
    .setInputFiles({ name, mimeType: "application/zip", buffer: zip });
  await page.getByRole("button", { name: "Preview", exact: true }).click();
}

async function axeAt(page: Page, width: number, what: string) {
  await page.setViewportSize({ width, height: width < 800 ? 740 : 900 });
  expect(await axeViolations(page), `${what} at ${width} px`).toEqual([]);
  // The screen fits its width: nothing scrolls sideways, even at 360 px.
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - window.innerWidth,
  );
  expect(overflow, `${what} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0);
  await saveScreenshot(page, `oneroster-${what}-${width}`);
}

describe("the OneRoster import screen", () => {
  test.beforeAll(async ({ server }) => {
    // Admins must turn on two-step login first (issue 18); the browser signs in with a code.
    await enrolMfa(server.url, admin);
  });

  test("previews and imports a bundle; a bad bundle is refused with file, line and reason", async ({
    page,
    browser,
  }) => {
    await logIn(page, admin);
    await page.goto("/admin/oneroster");
    await page.getByRole("heading", { level: 1, name: "OneRoster import" }).waitFor();
    await axeAt(page, 1366, "empty");
    await axeAt(page, 360, "empty");

    // A bundle whose enrolment names a class it does not hold: refused, nothing changes.
    await page.setViewportSize({ width: 1366, height: 900 });
    await choose(page, "bad.zip", bad);
    const refusal = page.getByRole("alert").filter({ hasText: m.rejected(1) });
    await refusal.waitFor();
    expect(await refusal.innerText()).toContain(
      `enrollments.csv line 3: ${m.unknownReference("classSourcedId", "k9")}`,
    );
    expect(await page.getByLabel("ZIP bundle").getAttribute("aria-invalid")).toBe("true");
    await axeAt(page, 1366, "refused");
    await axeAt(page, 360, "refused");

    // The good bundle: the preview says what would change, and nothing has yet.
    await page.setViewportSize({ width: 1366, height: 900 });
    await choose(page, "school.zip", good);
    await page.getByText("What the import will do").waitFor();
    await page.getByText(m.preview).waitFor();
    await page.getByText("Classes created: 1").waitFor();
    await page.getByText("Teachers invited by email (no account yet): 1").waitFor();
    await page.getByText(/^Students invited to classes .*: 2$/).waitFor();
    await page.getByText("Invitation emails to send: 3").waitFor();
    await axeAt(page, 1366, "preview");
    await axeAt(page, 360, "preview");

    await page.getByRole("button", { name: "Import", exact: true }).click();
    const done = page.locator(".alert").filter({ hasText: m.done });
    await done.waitFor();
    await done.getByText("Classes created: 1").waitFor();
    await done.getByText(`nia.${stamp}@school.test -> Maths 10A`).waitFor();
    await done.getByText("Invitation emails to be written and sent: 3").waitFor();
    expect(await page.getByText("What the import will do").count()).toBe(0);
    await axeAt(page, 360, "imported");
    await axeAt(page, 1366, "imported");

    // The same bundle again changes nothing.
    await choose(page, "school.zip", good);
    await page.getByText("Nothing to import: the roster is as the bundle says.").waitFor();

    // The refused bundle's 400 is the only error the browser logged.
    expect(browser.consoleErrors.filter((e) => !/status of 400/.test(e))).toEqual([]);
  });
});
