import { mkdir } from "node:fs/promises";
import path from "node:path";
import type { Frame, Page } from "playwright-core";
import { axeViolations } from "./a11y.ts";
import { post, signUpByApi } from "./api-calls.ts";
import {
  logIn,
  logOut,
  type Person,
  person,
  signUpVerified,
  verifyEmail,
} from "./browser-accounts.ts";
import { describe, expect, test } from "./fixtures.ts";
import { artifactsDir, type RunningServer } from "./harness.ts";
import { storedToken } from "./local-storage.ts";
import { call } from "./proof-helpers.ts";
import { sampleAnswers } from "./sample-answers.ts";

test.override("serverEnv", { RATE_LIMITS: "off", TEACHER_SIGNUP: "open" });

// The analytics report in Chromium against the real server (issue 7): a teacher files reports, a
// student answers nothing yet; each opens /student-dashboard, the sandboxed frame loads the
// built-in report, ECharts draws on canvases inside the frame, and nothing is logged as an error
// (a CSP refusal would be). Screenshots go to test-results/ as artifacts.
const stamp = Date.now();
const teacher = person("Rhea Reporter", "charts and tables 42");
const student = person("Sami Student", "revision every week 7");

const form = sampleAnswers;

/**
 * A student made through the API who saves the questionnaire and asks for predictions. With
 * `joinCode`, they verify their email and join that class: the report counts verified students
 * enrolled in a class only.
 */
async function apiStudent(
  server: RunningServer,
  who: Person,
  answers: Record<string, string>[],
  joinCode?: string,
): Promise<string> {
  const token = await signUpByApi(server, who, "student", { verified: Boolean(joinCode) });
  if (joinCode) await post(server, "/api/classes/join", { code: joinCode }, token);
  for (const a of answers) {
    await post(server, "/api/students", a, token);
    await post(server, "/api/predict", a, token);
  }
  return token;
}

/** Opens /student-dashboard and returns the report frame once its charts are drawn. */
async function openReport(page: Page, heading: string, minCanvases: number): Promise<Frame> {
  await page.goto("/student-dashboard");
  await page.getByRole("heading", { name: "Student Dashboard" }).waitFor();
  const iframe = page.locator("iframe[title='Analytics report']");
  await iframe.waitFor();
  // Scripts only: without allow-same-origin the report runs in an opaque origin.
  expect(await iframe.getAttribute("sandbox")).toBe("allow-scripts");
  expect(await iframe.getAttribute("width")).toBe("1250");
  expect(await iframe.getAttribute("height")).toBe("600");
  expect(await iframe.getAttribute("src")).toMatch(/^\/report\?token=/);
  const frame = page.frameLocator("iframe[title='Analytics report']");
  await frame.getByRole("heading", { name: heading }).waitFor({ timeout: 30_000 });
  await expect
    .poll(async () => frame.locator("canvas").count(), { timeout: 30_000 })
    .toBeGreaterThanOrEqual(minCanvases);
  const handle = await iframe.elementHandle();
  const content = await handle?.contentFrame();
  if (!content) throw new Error("the report frame has no content");
  await expectWalledOff(page, content);
  return content;
}

/** The console lines of the frame's refused call to /api/me (expectWalledOff). */
const refusedProbe = (line: string) =>
  /\/api\/me' from origin 'null' has been blocked by CORS/.test(line) ||
  line === "Failed to load resource: net::ERR_FAILED";

/**
 * The app holds a signed-in token in its storage, and a script inside the report frame can
 * reach none of it: not the storage, not the cookies, not the parent page, and the API answers
 * nothing but the report's data to a call from the frame.
 */
async function expectWalledOff(page: Page, content: Frame) {
  expect(await storedToken(page)).toBeTruthy();
  const probe = await content.evaluate(async () => {
    const attempt = (read: () => unknown) => {
      try {
        return String(read());
      } catch (error) {
        return (error as Error).name;
      }
    };
    const me = await fetch("/api/me", { credentials: "include" }).then(
      (res) => String(res.status),
      (error: Error) => error.name,
    );
    return {
      origin: window.origin,
      localStorage: attempt(() => window.localStorage.getItem("token")),
      sessionStorage: attempt(() => window.sessionStorage.length),
      cookie: attempt(() => document.cookie),
      parentStorage: attempt(() => window.parent.localStorage.getItem("token")),
      parentDocument: attempt(() => window.parent.document.title),
      me,
    };
  });
  expect(probe.origin).toBe("null");
  expect(probe.localStorage).toBe("SecurityError");
  expect(probe.sessionStorage).toBe("SecurityError");
  expect(["", "SecurityError"]).toContain(probe.cookie);
  expect(probe.parentStorage).toBe("SecurityError");
  expect(probe.parentDocument).toBe("SecurityError");
  // Refused (403, no CORS headers): the browser does not even hand the answer to the script.
  expect(probe.me).toBe("TypeError");
}

describe("the analytics report in the browser", () => {
  test.beforeAll(async () => {
    await mkdir(artifactsDir, { recursive: true });
  });

  test("a teacher sees the school report drawn inside the frame", async ({ browser, server }) => {
    const { page, consoleErrors } = browser;
    await signUpVerified(page, server, teacher, "Teacher");
    // A few reports through the API, with the teacher's own token.
    const token = await storedToken(page);
    const reports = [
      ["Ana Lima", "Maths", 35, 80, "Good"],
      ["Ana Lima", "Physics", 72, 70, "Average"],
      ["Ben Ruiz", "Maths", 91, 97, "Excellent"],
      ["Cleo Park", "History", 58, 88, "Good"],
      ["Dan Wu", "Maths", 12, 52, "Poor"],
    ] as const;
    for (const [studentName, course, marks, attendance, behavior] of reports) {
      const res = await fetch(`${server.url}/api/reports`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify({
          studentName,
          course,
          marks,
          attendance,
          assignments: 4,
          behavior,
          feedback: "Seen in class.",
        }),
      });
      expect(res.status).toBe(201);
    }

    const frame = await openReport(page, "School analytics report", 4);
    // Totals and the at-risk list are text in the frame.
    const text = (await frame.locator("body").textContent()) ?? "";
    expect(text).toContain("Students at risk");
    expect(text).toMatch(/Marks 35 in Maths \(under 40\)/);
    expect(text).toMatch(/Attendance 52 % in Maths/);
    // Every drawn chart has its table view.
    expect(await frame.getByText("Show the data as a table").count()).toBeGreaterThanOrEqual(4);
    // The framed page may be framed by this origin only.
    const res = await fetch(`${server.url}/report?token=x`);
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'self'");
    // and is sandboxed wherever it opens, in a tab of its own too.
    expect(res.headers.get("content-security-policy")).toContain("sandbox allow-scripts");
    await page.screenshot({ path: path.join(artifactsDir, "analytics-teacher.png") });
    // The whole report, opened at the frame's size on its own, for the artifacts.
    const src = await page.locator("iframe[title='Analytics report']").getAttribute("src");
    await page.setViewportSize({ width: 1250, height: 600 });
    await page.goto(src!);
    await page.getByRole("heading", { name: "School analytics report" }).waitFor();
    await expect.poll(async () => page.locator("canvas").count()).toBeGreaterThanOrEqual(5);
    expect(await page.evaluate(() => window.origin)).toBe("null");
    await page.screenshot({
      path: path.join(artifactsDir, "analytics-teacher-full.png"),
      fullPage: true,
    });
    // Open every table view, then check the page with axe.
    for (const summary of await page.locator("details.chart-table > summary").all()) {
      await summary.click();
    }
    const serious = (await axeViolations(page)).filter(
      (v) => v.impact === "serious" || v.impact === "critical",
    );
    expect(serious).toEqual([]);
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto("/dashboard");
    expect(consoleErrors.filter((e) => !refusedProbe(e))).toEqual([]);
    await logOut(page);
  });

  test("a student sees their own report, full-width on a phone", async ({ browser, server }) => {
    const { page, consoleErrors } = browser;
    // Five other students (the smallest group a student may see), verified and enrolled in the
    // teacher's class, then Sami with two predictions: an earlier one with a lower G2.
    const { email, password } = teacher;
    const { token } = (await post(server, "/api/auth/login", { email, password })) as {
      token: string;
    };
    const created = await call(server.url, "POST", "/api/classes", {
      body: { name: "Year 11 Maths", subject: "mat", year: "2026/27" },
      token,
    });
    expect(created.status).toBe(201);
    const { joinCode } = (created.body as { class: { joinCode: string } }).class;
    for (let i = 0; i < 5; i++) {
      await apiStudent(
        server,
        {
          name: `Other Pupil ${i}`,
          email: `other${i}.${stamp}@example.org`,
          password: "another password 1",
        },
        [form],
        joinCode,
      );
    }
    await apiStudent(server, student, [{ ...form, G2: "9" }, form]);
    await page.goto("/login");
    await logIn(page, student);
    await verifyEmail(page, server, student);
    // Her predictions over time and three cohort charts.
    const frame = await openReport(page, "Your analytics report", 4);
    const text = (await frame.locator("body").textContent()) ?? "";
    expect(text).toContain(`Where you stand, ${student.name}`);
    expect(text).toMatch(/your latest predicted final score was \d+\.\d out of 20/);
    expect(text).not.toContain("Other Pupil");
    // Nothing of the teacher's reports reaches a student.
    expect(text).not.toContain("Ana Lima");
    expect(text).not.toContain("Students at risk");
    await page.screenshot({ path: path.join(artifactsDir, "analytics-student.png") });

    // On a phone the report is shown full-width at its own size, not the frame scaled down.
    await page.setViewportSize({ width: 390, height: 844 });
    const iframe = page.locator("iframe[title='Analytics report']");
    await expect
      .poll(async () => (await iframe.boundingBox())?.width ?? 0, { timeout: 10_000 })
      .toBeLessThan(400);
    const box = await iframe.boundingBox();
    expect(box!.height).toBeGreaterThan(box!.width);
    await page.screenshot({ path: path.join(artifactsDir, "analytics-student-phone.png") });

    // Back returns to the previous page.
    await page.getByRole("button", { name: "Back" }).click();
    await page.waitForURL((url) => !url.pathname.endsWith("/student-dashboard"));
    expect(consoleErrors.filter((e) => !refusedProbe(e))).toEqual([]);
  });
});
