import { type AdminUser, adminMessages, type UserPage } from "@gradecast/contract/admin";
import type { User } from "@gradecast/contract/auth";
import { describe, expect } from "vitest";
import { type SignedInUser, staleSignIn, totpCode } from "../support/accounts.ts";
import { api } from "../support/class-helpers.ts";
import { apiTests } from "../support/fixtures.ts";
import { auditOf, dialects, errorOf, type TestApp } from "../support/helpers.ts";

// Rejecting a pending teacher request (issue 17: "Approving, rejecting ... written to the audit
// log"): POST /api/admin/users/:uid/reject-teacher clears the request, the account stays a
// student, the entry is its own action, and the account's own answer no longer says it waits.
// Like approving, it needs a sign-in or re-authentication in the last 10 minutes.

const tests = apiTests({ env: { RATE_LIMITS: "off" } });

describe.each(dialects)("rejecting a teacher request on %s", (dialect) => {
  const test = tests[dialect];

  const call = (
    t: TestApp,
    method: "GET" | "POST",
    url: string,
    who: SignedInUser | undefined,
    payload?: object,
  ) => api(t).call(method, url, who, payload);
  const reject = (t: TestApp, who: SignedInUser | undefined, uid: string) =>
    call(t, "POST", `/api/admin/users/${uid}/reject-teacher`, who);
  const me = async (t: TestApp, who: SignedInUser) => {
    const res = await call(t, "GET", "/api/me", who);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as User;
  };
  const waiting = async (t: TestApp, admin: SignedInUser) => {
    const res = await call(t, "GET", "/api/admin/users?pending=true&limit=100", admin);
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json() as UserPage;
    return { count: page.pendingCount, ids: page.items.map((u) => u.uid) };
  };

  test("clears the request, keeps a student, audits it as a rejection", async ({ t, signedIn }) => {
    const admin = await signedIn("admin");
    const wanda = await signedIn("teacher", { pending: true, name: "Wanda Waiting" });
    expect(await me(t, wanda)).toMatchObject({ role: "student", pendingRole: "teacher" });
    const before = await waiting(t, admin);
    expect(before.ids).toContain(wanda.user.uid);

    const res = await reject(t, admin, wanda.user.uid);
    expect(res.statusCode, res.body).toBe(200);
    const { user } = res.json() as { user: AdminUser };
    expect(user).toMatchObject({ uid: wanda.user.uid, role: "student", pendingRole: null });

    // The account's own answer (what its dashboard shows) no longer says the request waits, and
    // the teacher calls stay closed.
    expect(await me(t, wanda)).toMatchObject({ role: "student", pendingRole: null });
    expect((await call(t, "GET", "/api/reports", wanda)).statusCode).toBe(403);
    const after = await waiting(t, admin);
    expect(after.ids).not.toContain(wanda.user.uid);
    expect(after.count).toBe(before.count - 1);

    const entries = await auditOf(t, "admin.teacher_rejected", wanda.user.uid);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actor_id: admin.user.uid });
    expect(entries[0]?.details).toEqual({
      email: wanda.email,
      role: "student",
      pendingRole: "teacher",
    });
    expect(await auditOf(t, "admin.teacher_approved", wanda.user.uid)).toEqual([]);
    expect(await auditOf(t, "admin.role_changed", wanda.user.uid)).toEqual([]);

    // Nothing waits any more: a second rejection (another admin a moment later) is refused.
    const again = await reject(t, admin, wanda.user.uid);
    expect(again.statusCode).toBe(409);
    expect(errorOf(again.body).message).toBe(adminMessages.noTeacherRequest);
    expect(await auditOf(t, "admin.teacher_rejected", wanda.user.uid)).toHaveLength(1);
  });

  test("refuses accounts with no request, unknown accounts, and every caller but an admin", async ({
    t,
    signedIn,
  }) => {
    const admin = await signedIn("admin");
    const pending = await signedIn("teacher", { pending: true });
    const teacher = await signedIn("teacher");
    const student = await signedIn("student");
    for (const who of [teacher, student]) {
      const res = await reject(t, admin, who.user.uid);
      expect(res.statusCode).toBe(409);
      expect(errorOf(res.body).code).toBe("conflict");
      expect((await me(t, who)).role).toBe(who.user.role);
    }
    for (const uid of ["00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
      expect((await reject(t, admin, uid)).statusCode).toBe(404);
    }
    const refusals: [SignedInUser | undefined, number][] = [
      [undefined, 401],
      [pending, 403],
      [teacher, 403],
      [student, 403],
    ];
    for (const [who, status] of refusals) {
      expect((await reject(t, who, pending.user.uid)).statusCode).toBe(status);
    }
    expect(await me(t, pending)).toMatchObject({ pendingRole: "teacher" });
    expect(await auditOf(t, "admin.teacher_rejected", pending.user.uid)).toEqual([]);
  });

  test("asks an admin who signed in over 10 minutes ago to confirm first", async ({
    t,
    signedIn,
  }) => {
    const admin = await signedIn("admin");
    const pending = await signedIn("teacher", { pending: true });
    // The code of that sign-in was used then, not in this 30-second step.
    await staleSignIn(t, admin);
    const stale = await reject(t, admin, pending.user.uid);
    expect(stale.statusCode).toBe(403);
    expect(errorOf(stale.body).code).toBe("reauth_required");
    expect(await me(t, pending)).toMatchObject({ pendingRole: "teacher" });

    const confirm = await call(t, "POST", "/api/auth/reauth", admin, {
      password: admin.password,
      code: totpCode(admin.mfaSecret ?? ""),
    });
    expect(confirm.statusCode, confirm.body).toBe(204);
    expect((await reject(t, admin, pending.user.uid)).statusCode).toBe(200);
    expect(await me(t, pending)).toMatchObject({ role: "student", pendingRole: null });
  });
});
