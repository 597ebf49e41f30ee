import { post } from "./api-calls.ts";
import { logIn, logOut, person, signUpVerified } from "./browser-accounts.ts";
import { joinWithCode, readsReportsAboutThem } from "./class-steps.ts";
import { describe, expect, test } from "./fixtures.ts";

// The rest of classes and trust in Chromium (issue 17): a report written about a free-text name
// is linked later to the enrolled student from the report's dialog, after which the student
// reads it; and a teacher chooses, above the analytics frame, all their classes or one, and the
// frame loads with a token for that choice.
const teacher = person("Lina Linker", "linked at last 8");
const student = person("Stella Student", "what did they write 7");

test.override("commandLineAccounts", [{ ...teacher, role: "teacher" }]);

describe("linking a report, and the analytics of one class", () => {
  const classes: Record<string, { id: string; joinCode: string }> = {};

  test.beforeAll(async ({ server }) => {
    const { email, password } = teacher;
    const { token } = (await post(server, "/api/auth/login", { email, password })) as {
      token: string;
    };
    for (const name of ["Physics 9A", "Biology 9B"]) {
      const body = { name, subject: "mat", year: "2026/27" };
      const created = await post(server, "/api/classes", body, token);
      classes[name] = created.class as { id: string; joinCode: string };
    }
    // Written before the student had an account: a free-text name.
    const report = {
      studentName: "Stella S.",
      course: "Optics",
      marks: 64,
      attendance: 90,
      assignments: 4,
      behavior: "Good",
      feedback: "Steady lenses work.",
    };
    await post(server, "/api/reports", report, token);
  });

  test("the student registers and joins Physics 9A; the report is not hers yet", async ({
    page,
    server,
  }) => {
    await signUpVerified(page, server, student);
    await joinWithCode(page, classes["Physics 9A"]!.joinCode, /Physics 9A/);
    await page.getByText("No reports about you yet.").waitFor();
    await logOut(page);
  });

  test("the teacher links the free-text report to her from its dialog", async ({ page }) => {
    await logIn(page, teacher);
    await page.goto("/teacher-dashboard");
    await page.getByRole("button", { name: "Stella S.", exact: true }).click();
    const details = page.getByRole("dialog", { name: "Report: Stella S." });
    await details.getByRole("button", { name: "Link to a student" }).click();
    const dialog = page.getByRole("dialog", { name: /Link to a student/ });
    const name = dialog.getByRole("combobox", { name: "Student name" });
    await name.fill("");
    await name.pressSequentially("stel", { delay: 30 });
    const option = dialog.getByRole("option", { name: `${student.name} (Physics 9A)` });
    await option.waitFor();
    await name.press("ArrowDown");
    await name.press("Enter");
    await dialog.getByRole("button", { name: "Link the report" }).click();
    await page.getByText(`The report is now linked to ${student.name}.`).waitFor();
    // The row now bears the account's name.
    await page.getByRole("button", { name: student.name, exact: true }).waitFor();
    await logOut(page);
  });

  test("the student now reads it on her dashboard", async ({ page }) => {
    await readsReportsAboutThem(page, student, ["Optics", "Steady lenses work."]);
    // A student has no class chooser: the report is the school's aggregates.
    expect(await page.getByLabel("Report on").count()).toBe(0);
    await logOut(page);
  });

  test("the teacher chooses one class above the analytics frame, and the frame follows", async ({
    page,
  }) => {
    await logIn(page, teacher);
    await page.goto("/student-dashboard");
    const chooser = page.getByLabel("Report on");
    await chooser.waitFor();
    const options = await chooser.locator("option").allInnerTexts();
    expect(options[0]).toBe("All my classes");
    expect(options.slice(1).sort()).toEqual([
      "Biology 9B (Mathematics, 2026/27)",
      "Physics 9A (Mathematics, 2026/27)",
    ]);
    const frame = page.locator("iframe");
    await frame.waitFor();
    const before = await frame.getAttribute("src");
    const asked = page.waitForResponse((r) =>
      r.url().includes(`/api/analytics/embed?classId=${classes["Biology 9B"]!.id}`),
    );
    await chooser.selectOption({ label: "Biology 9B (Mathematics, 2026/27)" });
    expect((await asked).status()).toBe(200);
    await expect.poll(() => frame.getAttribute("src")).not.toBe(before);
    // The chooser sits in the page, outside the frame: the frame holds the report alone.
    expect(await page.frameLocator("iframe").getByLabel("Report on").count()).toBe(0);
  });
});
