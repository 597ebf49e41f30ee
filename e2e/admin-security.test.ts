import { securityMessages } from "@gradecast/contract/account-security";
import type { Page } from "playwright-core";
import { openManage, searchUsers } from "./admin-steps.ts";
import { enrolMfaByApi, logIn, type MfaKeys, person } from "./browser-accounts.ts";
import { describe, expect, test } from "./fixtures.ts";
import type { RunningServer } from "./harness.ts";
import { call } from "./proof-helpers.ts";

// An admin's security actions on /admin/users in Chromium against the real server (issue 18):
// sign a student out everywhere, and reset the two-step login of a student who lost their
// authenticator, which asks the admin to confirm their password and code first.
const admin = person("Ada Keeper", "guarding the school gate");
const student = person("Lee Lostphone", "my phone fell in a lake");

test.override("commandLineAccounts", [admin]);

async function apiLogin(server: RunningServer, who: { email: string; password: string }) {
  const { email, password } = who;
  const res = await call(server.url, "POST", "/api/auth/login", { body: { email, password } });
  expect(res.status).toBe(200);
  return res.body as { token?: string; mfaRequired?: boolean; challenge?: string };
}

describe("an admin's security actions in the browser", () => {
  let adminMfa: MfaKeys;
  let studentMfa: MfaKeys;

  test.beforeAll(async ({ server, page }) => {
    adminMfa = await enrolMfaByApi(server.url, admin);
    const body = { ...student, role: "student" };
    expect((await call(server.url, "POST", "/api/auth/register", { body })).status).toBe(201);
    studentMfa = await enrolMfaByApi(server.url, student);
    await logIn(page, { ...admin, mfa: adminMfa });
  });

  async function openStudentRow(page: Page) {
    await page.goto("/admin/users");
    await (await searchUsers(page, student.email, student.name)).waitFor();
  }

  test("signs a student out everywhere: their session can no longer call the API", async ({
    page,
    server,
  }) => {
    // The student's own session elsewhere, signed in with a recovery code.
    const { challenge } = await apiLogin(server, student);
    const mfa = await call(server.url, "POST", "/api/auth/mfa", {
      body: { challenge, code: studentMfa.recoveryCodes.shift() },
    });
    expect(mfa.status).toBe(200);
    const { token } = mfa.body as { token: string };
    const me = () => call(server.url, "GET", "/api/me", { token });
    expect((await me()).status).toBe(200);

    await openStudentRow(page);
    await openManage(page.getByRole("row", { name: new RegExp(student.name) }));
    await page.getByRole("button", { name: `Log out everywhere: ${student.name}` }).click();
    const dialog = page.getByRole("dialog", { name: `Log out ${student.name} everywhere?` });
    await dialog.getByRole("button", { name: "End all sessions" }).click();
    await page.getByText(`${student.name} is logged out on every device.`).waitFor();
    expect((await me()).status).toBe(401);
  });

  test("resets a student's two-step login after the admin confirms their password and code", async ({
    page,
    server,
  }) => {
    expect((await apiLogin(server, student)).mfaRequired).toBe(true);
    await openStudentRow(page);
    // The admin's sign-in is older than 10 minutes: the server asks for re-authentication once.
    let asked = 0;
    await page.route("**/api/admin/users/*/mfa", async (route) => {
      if (route.request().method() === "DELETE" && asked === 0) {
        asked += 1;
        await route.fulfill({
          status: 403,
          contentType: "application/json",
          body: JSON.stringify({
            error: { code: "reauth_required", message: securityMessages.reauthRequired },
          }),
        });
        return;
      }
      await route.fallback();
    });
    await openManage(page.getByRole("row", { name: new RegExp(student.name) }));
    await page.getByRole("button", { name: `Reset two-step login of ${student.name}` }).click();
    const confirm = page.getByRole("dialog", {
      name: `Reset two-step login of ${student.name}?`,
    });
    await confirm.getByRole("button", { name: "Reset two-step login" }).click();
    const reauth = page.getByRole("dialog", { name: "Confirm it is you" });
    await reauth.getByLabel("Password").fill(admin.password);
    // A recovery code: the TOTP step of the enrolment may not have passed yet (codes work once).
    await reauth
      .getByLabel(/Code from your authenticator app/)
      .fill(adminMfa.recoveryCodes.shift() ?? "");
    await reauth.getByRole("button", { name: "Confirm" }).click();
    await page.getByText(`${student.name}: ${securityMessages.mfaReset}`).waitFor();
    expect(asked).toBe(1);
    await page.unroute("**/api/admin/users/*/mfa");

    // The student signs in with the password alone now.
    const after = await apiLogin(server, student);
    expect(after.mfaRequired).toBeUndefined();
    expect(after.token).toBeTruthy();
  });
});
