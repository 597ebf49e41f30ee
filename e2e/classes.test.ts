import { classMessages } from "@gradecast/contract/classes";
import type { Page } from "playwright-core";
import { axeViolations } from "./a11y.ts";
import { enrolMfaByApi, logIn, type MfaKeys, person, signUpVerified } from "./browser-accounts.ts";
import { describe, expect, test } from "./fixtures.ts";
import { type OpenPage, openPage } from "./harness.ts";

// Classes in Chromium (issue 17): a teacher creates a class and shows its join code, a student
// joins with it from the Student Dashboard, and the teacher imports a class list, first a file
// with a bad line (refused, the line named), then a good one previewed before it is imported.
// The screens are checked at 360 px wide too; an admin then sees every class and opens it.
const teacher = person("Tomas Teacher", "classes start here 4");
const student = person("Sofia Student", "joining with a code 8");
// Enrolled from a class list: no password of their own yet.
const invitee = person("Ivo Invited", "");
const admin = person("Ada Admin", "all classes 5");

/** A card of the page, found by its heading. */
const card = (page: Page, title: string) =>
  page.locator("section.card", { has: page.getByRole("heading", { name: title, exact: true }) });

/** The Classes page, through the link a teacher's or an admin's dashboard has. */
async function openClasses(page: Page) {
  await page.goto("/Home");
  await page.goto("/teacher-dashboard");
  await page.getByRole("link", { name: "Classes", exact: true }).click();
}

/** True when the page scrolls sideways (something is wider than the screen). */
const scrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);

test.override("serverEnv", { TEACHER_SIGNUP: "open", RATE_LIMITS: "off" });
test.override("commandLineAccounts", [admin]);

describe("classes", () => {
  let studentTab: OpenPage;
  let classUrl = "";
  let joinCode = "";

  let adminMfa: MfaKeys;
  test.beforeAll(async ({ server }) => {
    // Admins must have MFA before anything else (issue 18): on through the API, as Settings does.
    adminMfa = await enrolMfaByApi(server.url, admin);
    // The student's own browser, a phone's width; the teacher's is the fixtures' page.
    studentTab = await openPage(server, { viewport: { width: 360, height: 740 } });
  });
  test.afterAll(async () => {
    await studentTab?.close();
  });

  test("a teacher creates a class and shows its join code", async ({ page, server }) => {
    await signUpVerified(page, server, teacher, "Teacher");
    await openClasses(page);
    await page.getByRole("heading", { level: 1, name: "Classes" }).waitFor();
    await page.getByText("No classes yet.").waitFor();
    // A missing field is named next to it.
    await page.getByRole("button", { name: "Create class" }).click();
    await page.getByText(classMessages.nameRequired).waitFor();
    await page.getByLabel("Name").fill("Maths 10B");
    await page.getByLabel("Subject").selectOption({ label: "Mathematics" });
    await page.getByLabel("School year").fill("2026/27");
    await page.getByRole("button", { name: "Create class" }).click();
    await page.getByRole("heading", { level: 1, name: "Maths 10B" }).waitFor();
    classUrl = new URL(page.url()).pathname;
    expect(classUrl).toMatch(/^\/classes\/[0-9a-f-]{36}$/);
    await page.getByRole("button", { name: "Show code" }).click();
    joinCode = (await page.getByTestId("join-code").innerText()).trim();
    expect(joinCode).toMatch(/^[A-HJKMNP-Z2-9]{8}$/);
    await page.getByText("No students yet.").waitFor();
    expect(await axeViolations(page), "class page").toEqual([]);
  });

  test("a student joins with the code from the Student Dashboard, on a 360 px screen", async ({
    server,
  }) => {
    const { page } = studentTab;
    await signUpVerified(page, server, student);
    await page.goto("/student-dashboard");
    const box = card(page, "Join a class");
    await box.waitFor();
    // A wrong code is refused next to the field, by the keyboard alone.
    await box.getByLabel("Join code").fill("ABCDEFGH");
    await page.keyboard.press("Enter");
    await box.getByText(classMessages.joinCodeUnknown).waitFor();
    await box.getByLabel("Join code").fill(joinCode.toLowerCase());
    await page.keyboard.press("Enter");
    await box.getByText(`${classMessages.joined} Maths 10B (2026/27)`).waitFor();
    await box.getByText("Tomas Teacher").waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    expect(await axeViolations(page), "join box on a phone").toEqual([]);
    expect(studentTab.consoleErrors.filter((e) => !/400|Failed to load resource/.test(e))).toEqual(
      [],
    );
  });

  test("the teacher sees the student and imports a class list after a preview", async ({
    page,
    browser,
  }) => {
    await page.goto(classUrl);
    const students = card(page, "Students");
    await students.getByText(student.email).waitFor();
    const importer = card(page, "Import a class list");

    // A file with a bad line is refused whole, the line named.
    await importer.getByLabel("CSV file").setInputFiles({
      name: "bad.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(`name,email\n${invitee.name},${invitee.email}\nNo Email,nope\n`),
    });
    await importer.getByRole("button", { name: "Preview" }).click();
    await importer.getByText(classMessages.rosterRejected).waitFor();
    // The line is named with the text it refused (issue 28).
    await importer.getByText(`Line 3: ${classMessages.rosterEmailInvalid} ("nope")`).waitFor();

    await importer.getByLabel("CSV file").setInputFiles({
      name: "roster.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(
        `name,email\r\n${student.name},${student.email}\r\n${invitee.name},${invitee.email}\r\n`,
      ),
    });
    await importer.getByRole("button", { name: "Preview" }).click();
    await importer.getByText("What the import will do").waitFor();
    await importer.getByText("Will be invited: 1").waitFor();
    await importer.getByText("Already in the class: 1").waitFor();
    // Nobody is enrolled by a list (issue 26): the preview never says so.
    expect(await importer.getByText(/enrolled/i).count()).toBe(0);
    // The preview changed nothing yet.
    expect(await students.getByText(invitee.email).count()).toBe(0);
    expect(await axeViolations(page), "roster preview").toEqual([]);

    await page.setViewportSize({ width: 360, height: 740 });
    expect(await scrollsSideways(page)).toBe(false);
    await importer.getByRole("button", { name: "Import 1 change" }).click();
    await importer.getByText("The class list was imported.").waitFor();
    await students.getByText("Invited, not in the class yet (1)").waitFor();
    await students.getByText(invitee.email).waitFor();
    // The same file again would add nothing, and says so.
    await importer.getByLabel("CSV file").setInputFiles({
      name: "roster.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(`name,email\n${invitee.name},${invitee.email}\n`),
    });
    await importer.getByRole("button", { name: "Preview" }).click();
    await importer.getByText("Nothing to import").waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    expect(await axeViolations(page), "class page on a phone").toEqual([]);
    await page.setViewportSize({ width: 1366, height: 900 });
    expect(browser.consoleErrors.filter((e) => !/400|Failed to load resource/.test(e))).toEqual([]);
  });

  test("a student invited from a semicolon file accepts on the Student Dashboard, then leaves", async ({
    page,
    accounts,
  }) => {
    // A student with an account of her own, not in the class: invited, never enrolled at once.
    const vera = await accounts.create({ role: "student", name: "Vera Verified" });
    await page.goto(classUrl);
    const importer = card(page, "Import a class list");
    // As a Portuguese spreadsheet saves it: semicolons, a byte order mark, CRLF.
    await importer.getByLabel("CSV file").setInputFiles({
      name: "turma.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(`\uFEFFname;email\r\n${vera.name};${vera.email}\r\n`),
    });
    await importer.getByRole("button", { name: "Preview" }).click();
    await importer.getByText("Will be invited: 1").waitFor();
    await importer.getByRole("button", { name: "Import 1 change" }).click();
    await importer.getByText("The class list was imported.").waitFor();
    const students = card(page, "Students");
    await students.getByText("Invited, not in the class yet (2)").waitFor();
    await students.getByText(vera.email).waitFor();

    // Her own browser: the invitation waits for her answer on the Student Dashboard.
    const { page: hers } = studentTab;
    await hers.evaluate(() => localStorage.removeItem("token"));
    await logIn(hers, vera);
    await hers.goto("/student-dashboard");
    const invitations = card(hers, "Class invitations");
    await invitations.getByText("Maths 10B").waitFor();
    await invitations.getByText(/Tomas Teacher/).waitFor();
    expect(await axeViolations(hers), "class invitation on a phone").toEqual([]);
    expect(await scrollsSideways(hers)).toBe(false);
    await invitations.getByRole("button", { name: "Accept the invitation to Maths 10B" }).click();
    await invitations.getByText(`${classMessages.invitationAccepted} Maths 10B`).waitFor();

    // The teacher now sees her in the class.
    await page.reload();
    await card(page, "Students").getByText(vera.email).first().waitFor();

    // She leaves, after saying so in a dialog.
    const box = card(hers, "Join a class");
    await box.getByRole("button", { name: "Leave Maths 10B" }).click();
    const dialog = hers.getByRole("dialog");
    await dialog.getByText("Leave Maths 10B?").waitFor();
    await dialog.getByRole("button", { name: "Leave class" }).click();
    await box.getByText(`${classMessages.leftClass} Maths 10B`).waitFor();
    expect(await box.getByRole("button", { name: "Leave Maths 10B" }).count()).toBe(0);
  });

  test("an admin sees every class and opens any of them", async ({ page }) => {
    await page.evaluate(() => localStorage.removeItem("token"));
    await logIn(page, { ...admin, mfa: adminMfa });
    await openClasses(page);
    await page.getByRole("heading", { level: 2, name: "All classes" }).waitFor();
    await page.getByText("Taught by Tomas Teacher").waitFor();
    await page.getByRole("link", { name: "Maths 10B" }).click();
    await page.getByRole("heading", { level: 1, name: "Maths 10B" }).waitFor();
    await card(page, "Students").getByText(student.email).waitFor();
    await page.getByRole("button", { name: "Show code" }).click();
    expect((await page.getByTestId("join-code").innerText()).trim()).toBe(joinCode);
  });
});
