import type { AdminUser } from "@gradecast/contract/admin";
import { describe, expect } from "vitest";
import type { SignedInUser } from "../support/accounts.ts";
import { apiTests } from "../support/fixtures.ts";
import { dialects } from "../support/helpers.ts";

// After the upgrade to classes (docs/operations.md, "Upgrading to classes"), existing teachers
// stay teachers; the admin's user list can show the ones who registered themselves and whom no
// admin has decided on, for review (GET /api/admin/users?review=true).

// Open sign-up, as before the upgrade: a teacher sign-up is a teacher at once.
const tests = apiTests({ env: { TEACHER_SIGNUP: "open", RATE_LIMITS: "off" } });

describe.each(dialects)("teachers to review on %s", (dialect) => {
  const test = tests[dialect];

  test("lists self-registered teachers until an admin decides, and nobody else", async ({
    t,
    signedIn,
  }) => {
    const admin = await signedIn("admin", { name: "Review Admin" });
    const selfMade = await signedIn("teacher", { name: "Self Made" });
    const decided = await signedIn("teacher", { name: "Decided Teacher" });
    const student = await signedIn("student", { name: "Plain Student" });
    const listUsers = (who: SignedInUser, review: string) =>
      t.app.inject({ method: "GET", url: `/api/admin/users?review=${review}`, headers: who.auth });
    const review = async () => {
      const res = await listUsers(admin, "true");
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { items: AdminUser[] }).items.map((u) => u.name).sort();
    };
    expect(selfMade.user.role).toBe("teacher");
    expect(await review()).toEqual(["Decided Teacher", "Self Made"]);

    // An admin's decision (here: made a student, then a teacher again) takes them off the list.
    for (const role of ["student", "teacher"]) {
      const res = await t.app.inject({
        method: "PATCH",
        url: `/api/admin/users/${decided.user.uid}`,
        headers: admin.auth,
        payload: { role },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    expect(await review()).toEqual(["Self Made"]);
    expect(await review()).not.toContain(student.user.name);

    expect((await listUsers(admin, "maybe")).statusCode).toBe(400);
    expect((await listUsers(selfMade, "true")).statusCode).toBe(403);
  });
});
