import { mkdir } from "node:fs/promises";
import path from "node:path";
import type { Frame, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations } from "./a11y.ts";
import { logIn, signUp } from "./browser-accounts.ts";
import {
  artifactsDir,
  type OpenPage,
  openPage,
  type RunningServer,
  startServer,
} from "./harness.ts";

// The analytics report in Chromium against the real server (issue 7): a teacher files reports, a
// student answers nothing yet; each opens /student-dashboard, the sandboxed frame loads the
// built-in report, ECharts draws on canvases inside the frame, and nothing is logged as an error
// (a CSP refusal would be). Screenshots go to test-results/ as artifacts.
const stamp = Date.now();
const teacher = {
  name: "Rhea Reporter",
  email: `rhea.${stamp}@example.org`,
  password: "charts and tables 42",
};
const student = {
  name: "Sami Student",
  email: `sami.${stamp}@example.org`,
  password: "revision every week 7",
};

const form: Record<string, string> = {
  school: "GP",
  sex: "F",
  age: "16",
  address: "U",
  famsize: "GT3",
  Pstatus: "T",
  Medu: "3",
  Fedu: "2",
  Mjob: "services",
  Fjob: "other",
  reason: "course",
  guardian: "mother",
  traveltime: "1",
  studytime: "2",
  failures: "0",
  schoolsup: "no",
  famsup: "yes",
  paid: "no",
  activities: "yes",
  nursery: "yes",
  higher: "yes",
  internet: "yes",
  romantic: "no",
  famrel: "4",
  freetime: "3",
  goout: "3",
  health: "4",
  absences: "4",
  G1: "12",
  G2: "13",
};

/** A student through the API: signs up, signs in, saves the questionnaire, asks for predictions. */
async function apiStudent(
  server: RunningServer,
  who: { name: string; email: string; password: string },
  answers: Record<string, string>[],
): Promise<string> {
  const post = async (url: string, body: unknown, token?: string) => {
    const res = await fetch(`${server.url}${url}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
  };
  await post("/api/auth/register", { ...who, role: "student" });
  const { token } = (await post("/api/auth/login", who)) as { token: string };
  for (const a of answers) {
    await post("/api/students", a, token);
    await post("/api/predict", a, token);
  }
  return token;
}

async function logOut(page: Page) {
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("button", { name: "Logout" })
    .click();
  await page.waitForURL(/\/login$/);
}

/** Opens /student-dashboard and returns the report frame once its charts are drawn. */
async function openReport(page: Page, heading: string, minCanvases: number): Promise<Frame> {
  await page.goto("/student-dashboard");
  await page.getByRole("heading", { name: "Student Dashboard" }).waitFor();
  const iframe = page.locator("iframe[title='Analytics report']");
  await iframe.waitFor();
  expect(await iframe.getAttribute("sandbox")).toBe("allow-scripts allow-same-origin");
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
  return content;
}

describe("the analytics report in the browser", () => {
  let server: RunningServer;
  let browser: OpenPage;

  beforeAll(async () => {
    server = await startServer({ env: { RATE_LIMITS: "off" } });
    browser = await openPage(server);
    await mkdir(artifactsDir, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("a teacher sees the school report drawn inside the frame", async () => {
    const { page, consoleErrors } = browser;
    await signUp(page, teacher, "Teacher");
    await logIn(page, teacher);
    // A few reports through the API, with the teacher's own token.
    const token = await page.evaluate(() => localStorage.getItem("token"));
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
    await page.screenshot({ path: path.join(artifactsDir, "analytics-teacher.png") });
    // The whole report, opened at the frame's size on its own, for the artifacts.
    const src = await page.locator("iframe[title='Analytics report']").getAttribute("src");
    await page.setViewportSize({ width: 1250, height: 600 });
    await page.goto(src!);
    await page.getByRole("heading", { name: "School analytics report" }).waitFor();
    await expect.poll(async () => page.locator("canvas").count()).toBeGreaterThanOrEqual(5);
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
    expect(consoleErrors).toEqual([]);
    await logOut(page);
  });

  it("a student sees their own report, scaled down on a phone", async () => {
    const { page, consoleErrors } = browser;
    // Five other students (the smallest group a student may see), then Sami with two
    // predictions: an earlier one with a lower G2.
    for (let i = 0; i < 5; i++) {
      await apiStudent(
        server,
        {
          name: `Other Pupil ${i}`,
          email: `other${i}.${stamp}@example.org`,
          password: "another password 1",
        },
        [form],
      );
    }
    await apiStudent(server, student, [{ ...form, G2: "9" }, form]);
    await page.goto("/login");
    await logIn(page, student);
    // Her predictions over time and three cohort charts.
    const frame = await openReport(page, "Your analytics report", 4);
    const text = (await frame.locator("body").textContent()) ?? "";
    expect(text).toContain(`Where you stand, ${student.name}`);
    expect(text).toMatch(/Your latest predicted final score is [\d.]+ out of 20/);
    expect(text).not.toContain("Other Pupil");
    // Nothing of the teacher's reports reaches a student.
    expect(text).not.toContain("Ana Lima");
    expect(text).not.toContain("Students at risk");
    await page.screenshot({ path: path.join(artifactsDir, "analytics-student.png") });

    // On a phone the 1250-pixel frame is scaled to the container's width.
    await page.setViewportSize({ width: 390, height: 844 });
    const iframe = page.locator("iframe[title='Analytics report']");
    await expect
      .poll(async () => (await iframe.boundingBox())?.width ?? 0, { timeout: 10_000 })
      .toBeLessThan(400);
    const box = await iframe.boundingBox();
    expect(box!.width / box!.height).toBeCloseTo(1250 / 600, 1);
    await page.screenshot({ path: path.join(artifactsDir, "analytics-student-phone.png") });

    // Back returns to the previous page.
    await page.getByRole("button", { name: "Back" }).click();
    await page.waitForURL((url) => !url.pathname.endsWith("/student-dashboard"));
    expect(consoleErrors).toEqual([]);
  });
});
