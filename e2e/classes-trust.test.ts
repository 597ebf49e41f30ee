import { messages } from "@gradecast/contract/messages";
import {
  enrolMfaByApi,
  logIn,
  logOut,
  type MfaKeys,
  person,
  signUpVerified,
} from "./browser-accounts.ts";
import { joinWithCode, readsReportsAboutThem } from "./class-steps.ts";
import { describe, expect, test } from "./fixtures.ts";
import { fillReportForm } from "./report-form.ts";

// Classes and trust in Chromium (issue 17), with TEACHER_SIGNUP at its default (approval): a
// teacher registers, the admin approves them, they create a class, a student joins with its code,
// the teacher files a report about the student picked from the class (keyboard only), the student
// reads it on their dashboard, and a second teacher cannot find it.
const admin = person("Ada Admin", "trust is earned 3");
const teacher = person("Tara Teacher", "my class my pupils 5");
const other = person("Otto Outsider", "not my class at all 6");
const student = person("Stella Student", "what did they write 7");

test.override("serverEnv", { TEACHER_SIGNUP: "", RATE_LIMITS: "off" });
test.override("commandLineAccounts", [admin, { ...other, role: "teacher" }]);

describe("classes and trust", () => {
  let joinCode = "";
  let adminMfa: MfaKeys;

  test.beforeAll(async ({ server }) => {
    // Admins must have MFA before anything else (issue 18): on through the API, as Settings does.
    adminMfa = await enrolMfaByApi(server.url, admin);
  });

  test("a teacher registers and verifies; the admin approves them", async ({ page, server }) => {
    await signUpVerified(page, server, teacher, "Teacher");
    await logOut(page);
    await logIn(page, { ...admin, mfa: adminMfa });
    await page.goto("/profile");
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: /Users/ })
      .click();
    await page.getByRole("button", { name: `Approve as teacher: ${teacher.name}` }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Approve as teacher" }).click();
    await page.getByText(`${teacher.name} is now a teacher.`).waitFor();
    await logOut(page);
  });

  test("the teacher creates a class and shows its join code", async ({ page }) => {
    await logIn(page, teacher);
    await page.goto("/classes");
    await page.getByRole("heading", { level: 1, name: "Classes" }).waitFor();
    await page.getByLabel("Name").fill("Chemistry 11C");
    await page.getByLabel("Subject").selectOption({ label: "Mathematics" });
    await page.getByLabel("School year").fill("2026/27");
    await page.getByRole("button", { name: "Create class" }).click();
    await page.getByRole("heading", { level: 1, name: "Chemistry 11C" }).waitFor();
    await page.getByRole("button", { name: "Show code" }).click();
    joinCode = (await page.getByTestId("join-code").innerText()).trim();
    expect(joinCode).toMatch(/^[A-Z2-9]{8}$/);
    await logOut(page);
  });

  test("a student joins with the code", async ({ page, server }) => {
    await signUpVerified(page, server, student);
    await joinWithCode(page, joinCode, /Chemistry 11C/);
    // Nothing written about her yet.
    await page.getByText("No reports about you yet.").waitFor();
    await logOut(page);
  });

  test("the teacher files a report about the student, picked from the class with the keyboard", async ({
    page,
  }) => {
    await logIn(page, teacher);
    await page.goto("/teacher-input");
    const name = page.getByRole("combobox", { name: "Student name" });
    await name.pressSequentially("stel", { delay: 30 });
    const option = page.getByRole("option", { name: `${student.name} (Chemistry 11C)` });
    await option.waitFor();
    await name.press("ArrowDown");
    expect(await option.getAttribute("aria-selected")).toBe("true");
    await name.press("Enter");
    expect(await name.inputValue()).toBe(student.name);
    await page.getByText(/Linked to Stella Student/).waitFor();
    await fillReportForm(page, {
      course: "Organic chemistry",
      marks: "77",
      attendance: "93",
      assignments: "5",
      behavior: "Good",
      feedback: "Careful titrations, clear lab notes.",
    });
    await page.getByRole("button", { name: "Submit Report" }).click();
    await page.getByText(messages.reportSubmitted).waitFor();
    await logOut(page);
  });

  test("the student reads it on her dashboard, with the teacher's name", async ({ page }) => {
    await readsReportsAboutThem(page, student, [
      "Organic chemistry",
      /By Tara Teacher, Chemistry 11C on/,
      "Careful titrations, clear lab notes.",
    ]);
    await logOut(page);
  });

  test("a second teacher cannot find it", async ({ page }) => {
    await logIn(page, other);
    await page.goto("/teacher-dashboard");
    await page.getByText(messages.noReports).waitFor();
    await page.getByLabel("Search by student name").fill("Stella");
    await page.getByText(messages.noReports).waitFor();
    expect(await page.getByText("Organic chemistry").count()).toBe(0);
    // Nor can they pick her on their own form.
    await page.goto("/teacher-input");
    await page.getByRole("combobox", { name: "Student name" }).pressSequentially("stel");
    await page.getByText("No enrolled student matches.", { exact: false }).waitFor();
  });
});
