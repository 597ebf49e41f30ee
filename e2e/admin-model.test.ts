import type { ModelState } from "@gradecast/contract/model-lifecycle";
import { axeViolations } from "./a11y.ts";
import { callApi, post } from "./api-calls.ts";
import { enrolMfaByApi, logIn, type MfaKeys, person } from "./browser-accounts.ts";
import { describe, expect, test } from "./fixtures.ts";
import { saveScreenshot } from "./harness.ts";

// The admin screen "Model" in Chromium (issue 30): an admin with two-step login opens
// /admin/model, sees the version in use and its card, and the school's outcomes (none yet, fewer
// than MODEL_MIN_OUTCOMES). A training is already queued when they press "Train a candidate": the
// refusal, naming the running one's progress, shows on screen, and the screen then follows that
// training. (A real candidate takes minutes to train; the gate's own refusals are tested in the
// API and model tests.)
const admin = person("Mona Model", "gradient boosted passphrase");
let adminMfa: MfaKeys | undefined;
let adminToken = "";

test.override("commandLineAccounts", [admin]);

describe("the Model screen", () => {
  test.beforeAll(async ({ server }) => {
    // Admins must turn on two-step login first (issue 18); the API signs in with a recovery code.
    adminMfa = await enrolMfaByApi(server.url, admin);
    const { email, password } = admin;
    const { challenge } = (await post(server, "/api/auth/login", { email, password })) as {
      challenge: string;
    };
    const session = await post(server, "/api/auth/mfa", {
      challenge,
      code: adminMfa.recoveryCodes.shift(),
    });
    adminToken = session.token as string;
  });

  test("shows the version in use and its card, and refuses a second training on screen", async ({
    page,
    browser,
    server,
  }) => {
    const state = (await callApi(
      server.url,
      "GET",
      "/api/admin/model",
      undefined,
      adminToken,
    )) as unknown as ModelState;
    expect(state.training).toBeNull();

    await logIn(page, { ...admin, ...(adminMfa ? { mfa: adminMfa } : {}) });
    await page.goto("/admin/model");
    await page.getByRole("heading", { level: 1, name: "Model" }).waitFor();
    const inUse = page.locator("section.card", {
      has: page.getByRole("heading", { name: "In use" }),
    });
    await inUse.getByText(state.active.id).waitFor();
    expect(await inUse.innerText()).toMatch(/the model that came with Gradecast/);

    // The model card's figures, behind their summary.
    await inUse.getByText("The model card's figures (cross-validated on the UCI data)").click();
    const card = inUse.getByRole("table", { name: "The model card's figures" });
    await card.waitFor();
    expect(await card.getByRole("columnheader").allInnerTexts()).toEqual([
      "Subject",
      "Setup",
      "Protocol",
      "Score RMSE",
      "Risk Brier",
      "Coverage",
    ]);
    expect(await card.locator("tbody tr").count()).toBe(state.card.length);
    expect(state.card.length).toBeGreaterThan(0);
    expect(await card.locator("tbody").innerText()).toMatch(/Mathematics/);
    expect(await card.locator("tbody").innerText()).toMatch(/\d\.\d{3}/);

    // No outcomes recorded yet: fewer than the minimum a candidate needs.
    const outcomes = page.locator("section.card", {
      has: page.getByRole("heading", { name: "This school's outcomes" }),
    });
    expect(await outcomes.innerText()).toContain(`at least ${state.minOutcomes} outcomes`);
    const maths = outcomes.getByRole("row").filter({ hasText: "Mathematics" });
    expect(await maths.getByRole("cell").allInnerTexts()).toEqual([
      "Mathematics",
      "0",
      "0",
      "0",
      "0",
    ]);
    await page.getByText("No candidate yet. Train one once outcomes are recorded.").waitFor();
    expect(await axeViolations(page), "model screen at 1366 px").toEqual([]);
    await saveScreenshot(page, "admin-model-1366");

    // Another admin's request (here, the API) queued a training since this screen was read.
    const queued = await post(server, "/api/admin/model/train", undefined, adminToken);
    expect(queued.job).toBeTruthy();

    const train = page.getByRole("button", { name: "Train a candidate" });
    expect(await train.isEnabled()).toBe(true);
    await train.click();
    const refusal = page.locator(".model-message");
    await refusal.waitFor();
    expect(await refusal.innerText()).toMatch(
      /A candidate is already being trained \((not started yet|\d+ of \d+ steps done)\)\./,
    );
    // The screen reads the state again and follows the running training; the button waits.
    await page.getByRole("progressbar", { name: "Training progress" }).waitFor();
    await expect.poll(() => train.isDisabled()).toBe(true);
    expect(await outcomes.locator(".model-progress").innerText()).toMatch(
      /Waiting to start…|Training…/,
    );

    // At a phone's width the screen stays readable without scrolling sideways.
    await page.setViewportSize({ width: 360, height: 740 });
    await refusal.scrollIntoViewIfNeeded();
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1),
    ).toBe(false);
    expect(await axeViolations(page), "model screen at 360 px").toEqual([]);
    await saveScreenshot(page, "admin-model-360");

    // The refused request is the only error the browser logged (its 409 answer).
    expect(browser.consoleErrors.filter((e) => !/status of 409/.test(e))).toEqual([]);
  });
});
