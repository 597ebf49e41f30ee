import { mkdir } from "node:fs/promises";
import path from "node:path";
import type { Audience } from "@gradecast/contract/roles";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AxeViolation, axeViolations } from "./a11y.ts";
import { createClassByApi, post } from "./api-calls.ts";
import { enrolMfaByApi, logIn, type MfaKeys, verifyEmail } from "./browser-accounts.ts";
import {
  artifactsDir,
  type OpenPage,
  openPage,
  type RunningServer,
  repoRoot,
  startServer,
} from "./harness.ts";
import { call } from "./proof-helpers.ts";
import { sampleAnswers } from "./sample-answers.ts";
import { screens, widths } from "./screens.ts";

// Every screen of e2e/screens.ts, signed in as each audience that reaches it, at 360 and 1366
// pixels wide: axe-core finds no violation, Tab reaches every control on the screen with a
// visible focus ring and nothing hidden takes focus, and a full-page screenshot is written to
// test-results/screens/ for a reviewer (never committed). Then the same screens in European
// Portuguese (issue 33), in a browser whose language is pt-PT and the same sessions: the
// Portuguese heading, axe at both widths, and a screenshot of each (pt-*.png). The screens show demo data, not only
// empty states (issue 28): a class with the student in it, the student's prediction, and a
// report the teacher filed about them.
const stamp = Date.now();
const password = "every screen by keyboard 5";
const people = {
  student: { name: "Sana Student", email: `sana.${stamp}@example.org`, password },
  teacher: { name: "Theo Teacher", email: `theo.${stamp}@example.org`, password },
  admin: { name: "Ada Admin", email: `ada.${stamp}@example.org`, password },
} as const;
const shotsDir = path.join(artifactsDir, "screens");

async function register(server: RunningServer, role: "student" | "teacher") {
  const res = await call(server.url, "POST", "/api/auth/register", {
    body: { ...people[role], role },
  });
  expect(res.status).toBe(201);
}

/** Waits for the screen: its heading, then no spinner or busy region left. */
async function settle(page: Page, heading: string | RegExp) {
  await page.getByRole("heading", { level: 1, name: heading }).first().waitFor({ timeout: 30_000 });
  await page.waitForLoadState("networkidle");
  await page
    .locator(".spinner, [aria-busy='true']")
    .first()
    .waitFor({ state: "detached", timeout: 15_000 })
    .catch(() => undefined);
}

interface FocusStep {
  label: string;
  visible: boolean;
  ring: boolean;
}

/**
 * Presses Tab through the page (from the top, at most `limit` times, stopping when focus comes
 * back round to a control it left) and reports each focused element; then lists the visible controls Tab never reached.
 */
async function tabThrough(
  page: Page,
  limit = 150,
): Promise<{ steps: FocusStep[]; missed: string[] }> {
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
    for (const el of Array.from(document.querySelectorAll("[data-tabbed]"))) {
      el.removeAttribute("data-tabbed");
      el.removeAttribute("data-tabbed-last");
    }
  });
  const steps: FocusStep[] = [];
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press("Tab");
    // Focus moving into or out of a frame lands a moment after the key: until it does, the page's
    // active element is its body, which would read as the end of the walk.
    await page
      .waitForFunction(
        () => document.activeElement !== document.body || !document.querySelector("iframe"),
        undefined,
        { timeout: 1_000, polling: 50 },
      )
      .catch(() => undefined);
    const step = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return null;
      // Still inside the same control (a date field's parts, a frame's own controls).
      if (el.hasAttribute("data-tabbed-last")) return "same";
      if (el.hasAttribute("data-tabbed")) return "again";
      for (const prev of Array.from(document.querySelectorAll("[data-tabbed-last]"))) {
        prev.removeAttribute("data-tabbed-last");
      }
      el.setAttribute("data-tabbed", "");
      el.setAttribute("data-tabbed-last", "");
      const style = getComputedStyle(el);
      const rect = el.getBoundingClientRect();
      return {
        label: `${el.tagName.toLowerCase()} ${el.getAttribute("aria-label") ?? el.textContent?.trim().slice(0, 40) ?? ""}`,
        visible: el.checkVisibility() && rect.width > 0 && rect.height > 0,
        ring:
          (style.outlineStyle !== "none" && Number.parseFloat(style.outlineWidth) > 0) ||
          style.boxShadow !== "none" ||
          // A frame takes focus for its document, which draws its own rings.
          el.tagName === "IFRAME",
      };
    });
    if (step === "same") continue;
    if (step === null || step === "again") break;
    steps.push(step);
  }
  const missed = await page.evaluate(() =>
    Array.from(
      document.querySelectorAll<HTMLElement>(
        "a[href], button:not([disabled]), input:not([disabled]):not([type=hidden]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex='0'], iframe",
      ),
    )
      .filter((el) => el.checkVisibility() && el.getBoundingClientRect().width > 0)
      .filter((el) => !el.hasAttribute("data-tabbed") && el.tabIndex >= 0)
      // Radio buttons take one Tab stop per group.
      .filter((el) => !(el instanceof HTMLInputElement && el.type === "radio"))
      .map((el) => `${el.tagName.toLowerCase()} ${el.textContent?.trim().slice(0, 40) ?? ""}`),
  );
  return { steps, missed };
}

describe("every screen, every role, at 360 and 1366 pixels", () => {
  let dataDir: string;
  let server: RunningServer;
  let browser: OpenPage;
  const contexts = new Map<Audience, BrowserContext>();

  let adminMfa: MfaKeys;
  let classId = "";
  /** The demo data, made through the API as the screens would make it. */
  async function demoData() {
    const tokenOf = async ({ email, password }: { email: string; password: string }) =>
      ((await post(server, "/api/auth/login", { email, password })) as { token: string }).token;
    const teacherToken = await tokenOf(people.teacher);
    const created = await createClassByApi(server, teacherToken, "Maths 10B");
    classId = created.id;
    const studentToken = await tokenOf(people.student);
    await post(server, "/api/classes/join", { code: created.joinCode }, studentToken);
    await post(server, "/api/predict", { ...sampleAnswers, subject: "mat" }, studentToken);
    await post(
      server,
      "/api/reports",
      {
        studentName: people.student.name,
        course: "Mathematics",
        marks: 72,
        attendance: 91,
        assignments: 5,
        behavior: "Good",
        feedback: "Careful work; asks good questions in class.",
      },
      teacherToken,
    );
  }

  beforeAll(async () => {
    const { mkdtemp } = await import("node:fs/promises");
    const os = await import("node:os");
    const { execFile } = await import("node:child_process");
    const { promisify } = await import("node:util");
    dataDir = await mkdtemp(path.join(os.tmpdir(), "gradecast-e2e-screens-"));
    // The first admin, as the README says: admin:create with the server stopped.
    await promisify(execFile)(
      process.execPath,
      [
        "--import",
        "tsx",
        "apps/server/scripts/admin-create.ts",
        "--email",
        people.admin.email,
        "--name",
        people.admin.name,
      ],
      {
        cwd: repoRoot,
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", ADMIN_PASSWORD: password },
      },
    );
    server = await startServer({
      dataDir,
      env: { RATE_LIMITS: "off", TEACHER_SIGNUP: "open" },
    });
    // Admins must have MFA before anything else (issue 18): on through the API, as Settings does.
    adminMfa = await enrolMfaByApi(server.url, people.admin);
    browser = await openPage(server);
    await register(server, "student");
    await register(server, "teacher");
    await mkdir(shotsDir, { recursive: true });
    contexts.set("anonymous", browser.page.context());
    for (const role of ["student", "teacher", "admin"] as const) {
      const context = await browser.browser.newContext({ baseURL: server.url });
      const page = await context.newPage();
      await logIn(page, role === "admin" ? { ...people.admin, mfa: adminMfa } : people[role]);
      if (role !== "admin") await verifyEmail(page, server, people[role]);
      contexts.set(role, context);
    }
    await demoData();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (dataDir) {
      const { rm } = await import("node:fs/promises");
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  for (const audience of ["anonymous", "student", "teacher", "admin"] as const) {
    const mine = screens.filter((s) => s.audiences.includes(audience));
    it(`${audience}: ${mine.length} screens pass axe and the keyboard at both widths`, async () => {
      const context = contexts.get(audience);
      if (!context) throw new Error(`no browser context for ${audience}`);
      const page = context.pages()[0] ?? (await context.newPage());
      const problems: { screen: string; axe: AxeViolation[]; keyboard: string[] }[] = [];
      for (const width of widths) {
        await page.setViewportSize({ width, height: width < 700 ? 740 : 900 });
        for (const screen of mine) {
          await page.goto(screen.path.replace("{classId}", classId));
          await settle(page, screen.heading);
          const shown = screen.path.replace("{classId}", "class");
          const name = `${audience}${shown.replace(/[^a-zA-Z0-9]+/g, "-")}-${width}`.replace(
            /-+$/,
            "",
          );
          await page.screenshot({ path: path.join(shotsDir, `${name}.png`), fullPage: true });
          const axe = await axeViolations(page);
          const { steps, missed } = await tabThrough(page);
          const keyboard = [
            ...steps.filter((s) => !s.visible).map((s) => `focus on a hidden ${s.label}`),
            ...steps.filter((s) => s.visible && !s.ring).map((s) => `no focus ring on ${s.label}`),
            ...missed.map((m) => `Tab never reaches ${m}`),
          ];
          if (axe.length > 0 || keyboard.length > 0) problems.push({ screen: name, axe, keyboard });
        }
      }
      expect(problems, JSON.stringify(problems, null, 1).slice(0, 4000)).toEqual([]);
    }, 600_000);
  }

  for (const audience of ["anonymous", "student", "teacher", "admin"] as const) {
    const mine = screens.filter((s) => s.audiences.includes(audience));
    it(`${audience}, in Portuguese: ${mine.length} screens pass axe at both widths`, async () => {
      const signedIn = contexts.get(audience);
      if (!signedIn) throw new Error(`no browser context for ${audience}`);
      // the same session in a browser that asks for Portuguese (the accounts chose no language)
      const context = await browser.browser.newContext({
        baseURL: server.url,
        locale: "pt-PT",
        storageState: await signedIn.storageState(),
      });
      try {
        const page = await context.newPage();
        const problems: { screen: string; axe: AxeViolation[] }[] = [];
        for (const width of widths) {
          await page.setViewportSize({ width, height: width < 700 ? 740 : 900 });
          for (const screen of mine) {
            await page.goto(screen.path.replace("{classId}", classId));
            await settle(page, screen.headingPt);
            expect(await page.locator("html").getAttribute("lang")).toBe("pt-PT");
            const shown = screen.path.replace("{classId}", "class");
            const name = `pt-${audience}${shown.replace(/[^a-zA-Z0-9]+/g, "-")}-${width}`.replace(
              /-+$/,
              "",
            );
            await page.screenshot({ path: path.join(shotsDir, `${name}.png`), fullPage: true });
            const axe = await axeViolations(page);
            if (axe.length > 0) problems.push({ screen: name, axe });
          }
        }
        expect(problems, JSON.stringify(problems, null, 1).slice(0, 4000)).toEqual([]);
      } finally {
        await context.close();
      }
    }, 600_000);
  }
});
