import { reportHeightMessage } from "@gradecast/contract/analytics";
import { classMessages } from "@gradecast/contract/classes";
import { adminCreateCommand } from "@gradecast/contract/first-admin";
import { messages } from "@gradecast/contract/messages";
import { signedOut } from "./admin-steps.ts";
import { post } from "./api-calls.ts";
import { fillSignUp, logIn, person, signUp, verifyEmail } from "./browser-accounts.ts";
import { describe, expect, test } from "./fixtures.ts";
import { sampleAnswers } from "./sample-answers.ts";

// Issue 28, a school's first hour on a fresh install (no admin yet; teacher sign-ups wait for
// approval, the default): the start-up banner and the login page say how to make the first
// admin; a sign-up says on the page that a code was emailed, and a teacher that an admin must
// approve; a student who types a join code with a look-alike is told which characters codes
// never use, and the empty "Join a class" status leaves no coloured box.
test.override("serverEnv", { TEACHER_SIGNUP: "", RATE_LIMITS: "off" });

describe("a fresh install, before its first admin", () => {
  test("the start-up banner and the login page say to run admin:create (1366 px)", async ({
    server,
    page,
    browser,
  }) => {
    expect(server.logs()).toContain("No admin yet. Create the first one with:");
    expect(server.logs()).toContain(adminCreateCommand);
    await signedOut(page, 1366);
    await page.goto("/login");
    const notice = page.getByRole("status").filter({ hasText: "no admin yet" });
    await notice.waitFor();
    expect(await notice.innerText()).toContain(adminCreateCommand);
    expect(browser.consoleErrors).toEqual([]);
  });

  test("a teacher is told before and after signing up that an admin must approve (1366 px)", async ({
    page,
    browser,
  }) => {
    await signedOut(page, 1366);
    const tess = person("Tess Teacher", "marking essays all weekend 3");
    await fillSignUp(page, tess);
    const role = page.getByLabel("Role");
    expect(await page.getByText("An admin must approve a teacher account.").count()).toBe(0);
    await role.selectOption({ label: "Teacher" });
    await page.getByText("An admin must approve a teacher account.").waitFor();
    // The hint is read with the Role choice.
    expect(await role.getAttribute("aria-describedby")).toMatch(/hint/);
    const before = browser.dialogs.length;
    await page.getByRole("button", { name: "Sign Up" }).click();
    await page.waitForURL(/\/login$/);
    // The contract's alert, then the same words on the page with what comes next.
    expect(browser.dialogs.slice(before)).toEqual([messages.registrationSuccess]);
    const notice = page.getByRole("status").filter({ hasText: messages.registrationSuccess });
    await notice.waitFor();
    const text = await notice.innerText();
    expect(text).toContain(`We emailed a 6-digit code to ${tess.email}`);
    expect(text).toContain("An admin must approve your teacher account");
  });

  test("a student's sign-up says the code was emailed, and nothing about approval (390 px)", async ({
    page,
  }) => {
    await signedOut(page, 390);
    const sam = person("Sam Student", "a student of many subjects 5");
    await signUp(page, sam);
    const notice = page.getByRole("status").filter({ hasText: messages.registrationSuccess });
    await notice.waitFor();
    expect(await notice.innerText()).toContain(`We emailed a 6-digit code to ${sam.email}`);
    expect(await notice.innerText()).not.toContain("admin");
  });

  test("a join code with a look-alike is told which characters codes never use; the empty status shows no box (390 px)", async ({
    page,
    server,
    accounts,
  }) => {
    await signedOut(page, 390);
    const pupil = await accounts.create({ role: "student", verified: false });
    await logIn(page, pupil);
    await verifyEmail(page, server, pupil);
    await page.goto("/student-dashboard");
    const join = page.locator("section.card", {
      has: page.getByRole("heading", { name: "Join a class" }),
    });
    await join.waitFor();
    // The live region is there for screen readers, empty and without a coloured box.
    const status = join.getByRole("status");
    expect(await status.count()).toBe(1);
    expect(await status.innerText()).toBe("");
    const box = await status.boundingBox();
    expect(box?.height ?? 0).toBe(0);

    // The field says which characters codes never use before anyone types.
    await join.getByText("Codes never use 0, 1, I, L or O.").waitFor();
    // Eight characters, one of them an O: the old message said "8 letters and digits".
    await page.getByLabel("Join code").fill("ABCD EFGO");
    await page.keyboard.press("Enter");
    await page.getByText(classMessages.joinCodeInvalid).first().waitFor();
    expect(classMessages.joinCodeInvalid).toContain("never uses 0, 1, I, L or O");
  });

  test("on a phone the analytics frame is as tall as the report, and takes its height from its own frame only (390 px)", async ({
    page,
    server,
    accounts,
  }) => {
    await signedOut(page, 390);
    const reader = await accounts.create({ role: "student" });
    const { token } = (await post(server, "/api/auth/login", {
      email: reader.email,
      password: reader.password,
    })) as { token: string };
    await post(server, "/api/predict", sampleAnswers, token);
    await logIn(page, reader);
    await page.goto("/student-dashboard");
    const iframe = page.locator("iframe.report-frame");
    await iframe.waitFor();
    await page.locator("iframe.report-frame.report-frame-sized").waitFor();
    const frame = await (await iframe.elementHandle())?.contentFrame();
    if (!frame) throw new Error("no report frame");
    await frame.locator("main h1").waitFor();
    // Nothing left to scroll inside the frame: the page scrolls, not a box within it.
    const insideScroll = () =>
      frame.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
    await expect.poll(insideScroll, { timeout: 10_000 }).toBeLessThanOrEqual(1);

    // A message from anywhere else (here the page itself) changes nothing: the frame keeps
    // the report's height, not the 50 px the message asks for.
    await page.evaluate(
      (type) => window.postMessage({ type, height: 50 }, "*"),
      reportHeightMessage.type,
    );
    await page.waitForTimeout(300);
    expect((await iframe.boundingBox())?.height ?? 0).toBeGreaterThan(300);
    expect(await insideScroll()).toBeLessThanOrEqual(1);
  });
});
