import { adminMessages } from "@gradecast/contract/admin";
import { messages } from "@gradecast/contract/messages";
import { describe, expect, it } from "vitest";
import {
  postLogin,
  type SignedInUser,
  sendRefreshCookie,
  signIn,
  uniqueEmail,
} from "../support/accounts.ts";
import { apiTests, type Person } from "../support/fixtures.ts";
import {
  auditOf,
  dialects,
  errorOf,
  recordingMailer,
  type TestApp,
  withTestApp,
} from "../support/helpers.ts";

// User management (issue 8): list and search, role changes and teacher approval, disabling
// (sessions and ID tokens end at once), the last-admin rule under concurrency, admin-sent
// password resets, and the audit entries each of them writes.

type AdminUser = {
  uid: string;
  name: string;
  email: string;
  role: string;
  pendingRole: string | null;
  emailVerified: boolean;
  disabled: boolean;
  createdAt: string;
};

const mailer = recordingMailer();
const outbox = mailer.sent;
const cast = { admin: ["admin", { name: "Ada Admin" }] } satisfies Record<string, Person>;
const tests = apiTests({ services: { mailer }, people: cast });
const adminIp = "10.99.0.1";

/** The user-management calls of the file's admin (`list` and `patch` as another caller if given). */
function usersApi(t: TestApp, admin: SignedInUser) {
  return {
    /** Leaves the file's admin as the only one (earlier tests may have made others). */
    demoteOtherAdmins: () =>
      t.database.db
        .updateTable("users")
        .set({ role: "student" })
        .where("role", "=", "admin")
        .where("id", "!=", admin.user.uid)
        .execute(),

    list(query: string, who: SignedInUser = admin) {
      return t.app.inject({ method: "GET", url: `/api/admin/users${query}`, headers: who.auth });
    },

    patch(uid: string, payload: unknown, who: SignedInUser = admin) {
      return t.app.inject({
        method: "PATCH",
        url: `/api/admin/users/${uid}`,
        headers: who.auth,
        remoteAddress: adminIp,
        payload: payload as object,
      });
    },

    async row(uid: string) {
      return t.database.db
        .selectFrom("users")
        .selectAll()
        .where("id", "=", uid)
        .executeTakeFirstOrThrow();
    },

    sendReset: (uid: string) =>
      t.app.inject({
        method: "POST",
        url: `/api/admin/users/${uid}/reset-password`,
        headers: admin.auth,
        remoteAddress: adminIp,
      }),
  };
}

describe.each(dialects)("admin users (%s)", (dialect) => {
  const test = tests[dialect];

  describe("GET /api/admin/users", () => {
    test("finds users by part of their name or email, whatever the case, with exactly the public fields", async ({
      t,
      signedIn,
      people,
    }) => {
      const { list } = usersApi(t, people.admin);
      const a = await signedIn("student", {
        name: "Zebedee Quaffle",
        email: uniqueEmail("zq-find"),
      });
      const b = await signedIn("teacher", { name: "Other", email: uniqueEmail("quaffle-mail") });
      const byName = await list("?search=zEBEDEE%20quaff");
      expect(byName.statusCode).toBe(200);
      const found = (byName.json() as { items: AdminUser[] }).items;
      expect(found.map((u) => u.uid)).toEqual([a.user.uid]);
      expect(Object.keys(found[0]!).sort()).toEqual(
        [
          "uid",
          "name",
          "email",
          "role",
          "pendingRole",
          "emailVerified",
          "disabled",
          "createdAt",
          "locale",
        ].sort(),
      );
      expect(found[0]).toMatchObject({
        name: "Zebedee Quaffle",
        role: "student",
        pendingRole: null,
        emailVerified: true,
        disabled: false,
      });
      expect(byName.body).not.toContain("password");

      const both = (await list("?search=QUAFFLE")).json() as { items: AdminUser[] };
      expect(both.items.map((u) => u.uid).sort()).toEqual([a.user.uid, b.user.uid].sort());
      const byEmail = (await list(`?search=${encodeURIComponent(b.email.toUpperCase())}`)).json();
      expect(byEmail.items.map((u: AdminUser) => u.uid)).toEqual([b.user.uid]);
    });

    test("matches % and _ literally", async ({ t, signedIn, people }) => {
      const { list } = usersApi(t, people.admin);
      const odd = await signedIn("student", { name: "Per%cent_Under", email: uniqueEmail("pc") });
      await signedIn("student", { name: "PerXcentYUnder", email: uniqueEmail("pc") });
      const res = (await list(`?search=${encodeURIComponent("per%cent_")}`)).json();
      expect(res.items.map((u: AdminUser) => u.uid)).toEqual([odd.user.uid]);
      const none = (await list(`?search=${encodeURIComponent("%")}`)).json();
      expect(none.items.map((u: AdminUser) => u.uid)).toEqual([odd.user.uid]);
    });

    test("pages newest first with a cursor, without gaps or repeats", async ({
      t,
      signedIn,
      people,
    }) => {
      const { list } = usersApi(t, people.admin);
      const tag = `pager${Date.now()}`;
      for (let i = 0; i < 5; i++) {
        await signedIn("student", { name: `${tag} ${i}`, email: uniqueEmail(tag) });
      }
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query: string = `?search=${tag}&limit=2${cursor ? `&cursor=${cursor}` : ""}`;
        const res = await list(query);
        expect(res.statusCode).toBe(200);
        const body = res.json() as { items: AdminUser[]; nextCursor: string | null };
        expect(body.items.length).toBeLessThanOrEqual(2);
        seen.push(...body.items.map((u) => u.name));
        cursor = body.nextCursor;
        pages += 1;
      } while (cursor && pages < 10);
      expect(pages).toBe(3);
      expect(seen).toEqual([4, 3, 2, 1, 0].map((i) => `${tag} ${i}`));
    });

    test("refuses a bad limit or cursor with 400 naming the field", async ({ t, people }) => {
      const { list } = usersApi(t, people.admin);
      for (const [query, field] of [
        ["?limit=0", "limit"],
        ["?cursor=not-a-cursor", "cursor"],
      ] as const) {
        const res = await list(query);
        expect(res.statusCode, query).toBe(400);
        expect(errorOf(res.body).fields).toHaveProperty(field);
      }
    });

    test("is refused to teachers (403) and anonymous callers (401)", async ({
      t,
      signedIn,
      people,
    }) => {
      const { list } = usersApi(t, people.admin);
      const teacher = await signedIn("teacher");
      expect((await list("", teacher)).statusCode).toBe(403);
      const anon = await t.app.inject({ method: "GET", url: "/api/admin/users" });
      expect(anon.statusCode).toBe(401);
    });
  });

  describe("PATCH /api/admin/users/:uid", () => {
    test("changes a role, which the user's existing ID token carries at once, and audits it", async ({
      t,
      signedIn,
      people,
    }) => {
      const { patch, row } = usersApi(t, people.admin);
      const s = await signedIn("student");
      const before = await t.app.inject({ method: "GET", url: "/api/reports", headers: s.auth });
      expect(before.statusCode).toBe(403);
      const res = await patch(s.user.uid, { role: "teacher" });
      expect(res.statusCode).toBe(200);
      expect((res.json() as { user: AdminUser }).user).toMatchObject({
        uid: s.user.uid,
        role: "teacher",
        pendingRole: null,
      });
      expect((await row(s.user.uid)).role).toBe("teacher");
      const after = await t.app.inject({ method: "GET", url: "/api/reports", headers: s.auth });
      expect(after.statusCode).toBe(200);
      const [entry] = await auditOf(t, "admin.role_changed", s.user.uid);
      expect(entry).toMatchObject({
        actor_id: people.admin.user.uid,
        actor_email: people.admin.email,
        ip: adminIp,
      });
      expect(entry!.details).toMatchObject({ from: "student", to: "teacher" });
      expect(entry!.at).toBeTruthy();
    });

    test("validates the body and the user", async ({ t, signedIn, people }) => {
      const { patch, row } = usersApi(t, people.admin);
      const s = await signedIn("student");
      const empty = await patch(s.user.uid, {});
      expect(empty.statusCode).toBe(400);
      expect(errorOf(empty.body).message).toBe(adminMessages.nothingToChange);
      const badRole = await patch(s.user.uid, { role: "principal" });
      expect(badRole.statusCode).toBe(400);
      expect(errorOf(badRole.body).fields).toHaveProperty("role");
      const badFlag = await patch(s.user.uid, { disabled: "yes" });
      expect(badFlag.statusCode).toBe(400);
      expect(errorOf(badFlag.body).fields).toHaveProperty("disabled");
      const extra = await patch(s.user.uid, { role: "teacher", email: "x@example.com" });
      expect(extra.statusCode).toBe(400);
      expect((await row(s.user.uid)).role).toBe("student");
      const unknown = await patch("00000000-0000-4000-8000-000000000000", { role: "teacher" });
      expect(unknown.statusCode).toBe(404);
      expect(errorOf(unknown.body).message).toBe(adminMessages.userNotFound);
      expect((await patch("not-a-uuid", { role: "teacher" })).statusCode).toBe(404);
    });

    test("writes nothing when nothing changes", async ({ t, signedIn, people }) => {
      const { patch } = usersApi(t, people.admin);
      const s = await signedIn("student");
      const res = await patch(s.user.uid, { role: "student", disabled: false });
      expect(res.statusCode).toBe(200);
      expect(await auditOf(t, "admin.role_changed", s.user.uid)).toHaveLength(0);
      expect(await auditOf(t, "admin.user_enabled", s.user.uid)).toHaveLength(0);
    });
  });

  describe("disabling an account", () => {
    test("ends every session and the ID token at once, refuses sign-in and refresh, and can be undone", async ({
      t,
      signedIn,
      people,
    }) => {
      const { patch } = usersApi(t, people.admin);
      const s = await signedIn("teacher");
      // A second session of the same user (another device).
      const login2 = await postLogin(t, s.email);
      expect(login2.statusCode).toBe(200);

      const res = await patch(s.user.uid, { disabled: true });
      expect(res.statusCode).toBe(200);
      expect((res.json() as { user: AdminUser }).user.disabled).toBe(true);

      const sessions = await t.database.db
        .selectFrom("sessions")
        .select(["revoked_at"])
        .where("user_id", "=", s.user.uid)
        .execute();
      expect(sessions.length).toBeGreaterThanOrEqual(2);
      expect(sessions.every((x) => x.revoked_at !== null)).toBe(true);

      const me = await t.app.inject({ method: "GET", url: "/api/me", headers: s.auth });
      expect(me.statusCode).toBe(401);
      expect(errorOf(me.body)).toMatchObject({
        code: "account_disabled",
        message: messages.accountDisabled,
      });
      const reports = await t.app.inject({ method: "GET", url: "/api/reports", headers: s.auth });
      expect(reports.statusCode).toBe(401);

      const refresh = await sendRefreshCookie(t, "refresh", s.refreshToken);
      expect(refresh.statusCode).toBe(401);

      const login = await postLogin(t, s.email);
      expect(login.statusCode).toBe(401);
      expect(errorOf(login.body)).toMatchObject({
        code: "account_disabled",
        message: messages.accountDisabled,
      });

      const [entry] = await auditOf(t, "admin.user_disabled", s.user.uid);
      expect(entry).toMatchObject({ actor_id: people.admin.user.uid, ip: adminIp });

      const enable = await patch(s.user.uid, { disabled: false });
      expect(enable.statusCode).toBe(200);
      expect(await auditOf(t, "admin.user_enabled", s.user.uid)).toHaveLength(1);
      const again = await postLogin(t, s.email);
      expect(again.statusCode).toBe(200);
      // The old refresh token stays dead after re-enabling.
      const oldRefresh = await sendRefreshCookie(t, "refresh", s.refreshToken);
      expect(oldRefresh.statusCode).toBe(401);
    });
  });

  describe("the last active admin", () => {
    test("can be neither demoted nor disabled, by anyone; a disabled admin does not count", async ({
      t,
      signedIn,
      people,
    }) => {
      const { demoteOtherAdmins, list, patch, row } = usersApi(t, people.admin);
      // Start from this one admin only.
      await demoteOtherAdmins();
      for (const body of [{ role: "teacher" }, { role: "student" }, { disabled: true }]) {
        const res = await patch(people.admin.user.uid, body);
        expect(res.statusCode).toBe(409);
        expect(errorOf(res.body)).toMatchObject({
          code: "conflict",
          message: adminMessages.lastAdmin,
        });
      }
      expect(await row(people.admin.user.uid)).toMatchObject({ role: "admin", disabled: false });

      const second = await signedIn("admin", { name: "Second Admin" });
      const disableSecond = await patch(second.user.uid, { disabled: true });
      expect(disableSecond.statusCode).toBe(200);
      // The second admin is disabled: the first is again the last active one.
      expect((await patch(people.admin.user.uid, { role: "teacher" })).statusCode).toBe(409);
      // A disabled admin may be demoted (it changes nothing for the active count).
      expect((await patch(second.user.uid, { role: "student" })).statusCode).toBe(200);
      // With another active admin, demoting works, by the admin themself too.
      const third = await signedIn("admin", { name: "Third Admin" });
      const self = await patch(third.user.uid, { role: "teacher" }, third);
      expect(self.statusCode).toBe(200);
      expect((await row(third.user.uid)).role).toBe("teacher");
      // Their token lost the admin pages at once.
      expect((await list("", third)).statusCode).toBe(403);
    });

    test("holds when two admins demote each other at the same time", async ({
      t,
      signedIn,
      people,
    }) => {
      const { demoteOtherAdmins, patch } = usersApi(t, people.admin);
      const db = t.database.db;
      for (let round = 0; round < 4; round++) {
        await demoteOtherAdmins();
        const other = await signedIn("admin", { name: `Rival ${round}` });
        const [a, b] = await Promise.all([
          patch(other.user.uid, round % 2 ? { disabled: true } : { role: "student" }, people.admin),
          patch(people.admin.user.uid, { role: "teacher" }, other),
        ]);
        const statuses = [a.statusCode, b.statusCode];
        // Exactly one wins; the other is refused: 409, or 403/401 when its caller was demoted
        // or disabled before its own request was authenticated.
        const why = `round ${round}: ${a.statusCode} ${a.body} / ${b.statusCode} ${b.body}`;
        expect(
          statuses.filter((s) => s === 200),
          why,
        ).toHaveLength(1);
        expect(
          statuses.filter((s) => [401, 403, 409].includes(s)),
          why,
        ).toHaveLength(1);
        const active = await db
          .selectFrom("users")
          .select("id")
          .where("role", "=", "admin")
          .where("disabled", "=", false)
          .execute();
        expect(active).toHaveLength(1);
        // Put the original admin back for the next round.
        await db
          .updateTable("users")
          .set({ role: "admin", disabled: false })
          .where("id", "=", people.admin.user.uid)
          .execute();
      }
    });
  });

  describe("POST /api/admin/users/:uid/reset-password", () => {
    test("emails a working single-use reset link, audited without the token", async ({
      t,
      signedIn,
      people,
    }) => {
      const { sendReset } = usersApi(t, people.admin);
      const s = await signedIn("student");
      outbox.length = 0;
      const res = await sendReset(s.user.uid);
      expect(res.statusCode).toBe(202);
      expect(res.json()).toEqual({ message: adminMessages.resetSent });
      const mail = outbox.find((m) => m.to === s.email);
      expect(mail).toBeDefined();
      const token = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail!.text)?.[1];
      expect(token).toBeDefined();
      const reset = await t.app.inject({
        method: "POST",
        url: "/api/auth/reset-password",
        payload: { token, password: "a brand new passphrase" },
      });
      expect(reset.statusCode).toBe(200);
      const [entry] = await auditOf(t, "admin.password_reset_sent", s.user.uid);
      expect(entry).toMatchObject({ actor_id: people.admin.user.uid, ip: adminIp });
      expect(JSON.stringify(entry!.details)).not.toContain(token!);
    });

    test("is refused for a disabled account (409) and an unknown one (404)", async ({
      t,
      signedIn,
      people,
    }) => {
      const { patch, sendReset } = usersApi(t, people.admin);
      const s = await signedIn("student");
      await patch(s.user.uid, { disabled: true });
      outbox.length = 0;
      const res = await sendReset(s.user.uid);
      expect(res.statusCode).toBe(409);
      expect(errorOf(res.body).message).toBe(adminMessages.resetDisabled);
      expect(outbox).toHaveLength(0);
      const unknown = await sendReset("00000000-0000-4000-8000-000000000000");
      expect(unknown.statusCode).toBe(404);
    });
  });
});

describe.each(dialects)("teacher approval (%s)", (dialect) => {
  it("TEACHER_SIGNUP=approval: a teacher sign-up waits as a student until an admin approves it", async () => {
    await withTestApp(dialect, { env: { TEACHER_SIGNUP: "approval" } }, async (t) => {
      const admin = await signIn(t, "admin");
      const teacher = await signIn(t, "teacher", { name: "Pending Teacher", pending: true });
      expect(teacher.user.role).toBe("student");
      const denied = await t.app.inject({
        method: "GET",
        url: "/api/reports",
        headers: teacher.auth,
      });
      expect(denied.statusCode).toBe(403);
      const student = await signIn(t, "student");

      const pending = await t.app.inject({
        method: "GET",
        url: "/api/admin/users?pending=true",
        headers: admin.auth,
      });
      const items = (pending.json() as { items: AdminUser[] }).items;
      expect(items.map((u) => u.uid)).toEqual([teacher.user.uid]);
      // The sidebar's count, whatever the list's filter.
      expect((pending.json() as { pendingCount: number }).pendingCount).toBe(1);
      const all = await t.app.inject({
        method: "GET",
        url: "/api/admin/users?limit=1",
        headers: admin.auth,
      });
      expect((all.json() as { pendingCount: number }).pendingCount).toBe(1);
      // One active admin: the screen turns off demoting or disabling it.
      expect((all.json() as { activeAdminCount: number }).activeAdminCount).toBe(1);
      expect(items[0]).toMatchObject({ role: "student", pendingRole: "teacher" });
      expect(items.map((u) => u.uid)).not.toContain(student.user.uid);

      const approve = await t.app.inject({
        method: "PATCH",
        url: `/api/admin/users/${teacher.user.uid}`,
        headers: admin.auth,
        payload: { role: "teacher" },
      });
      expect(approve.statusCode).toBe(200);
      expect((approve.json() as { user: AdminUser }).user).toMatchObject({
        role: "teacher",
        pendingRole: null,
      });
      const allowed = await t.app.inject({
        method: "GET",
        url: "/api/reports",
        headers: teacher.auth,
      });
      expect(allowed.statusCode).toBe(200);
      const entry = await t.database.db
        .selectFrom("audit_log")
        .selectAll()
        .where("action", "=", "admin.teacher_approved")
        .executeTakeFirst();
      expect(entry).toMatchObject({ actor_id: admin.user.uid, target: teacher.user.uid });
      const none = await t.app.inject({
        method: "GET",
        url: "/api/admin/users?pending=true",
        headers: admin.auth,
      });
      expect((none.json() as { items: AdminUser[] }).items).toEqual([]);
      expect((none.json() as { pendingCount: number }).pendingCount).toBe(0);
    });
  });

  it("TEACHER_SIGNUP=open: a teacher sign-up is a teacher at once", async () => {
    await withTestApp(dialect, { env: { TEACHER_SIGNUP: "open" } }, async (t) => {
      const teacher = await signIn(t, "teacher", { pending: true });
      expect(teacher.user.role).toBe("teacher");
      const row = await t.database.db
        .selectFrom("users")
        .select(["role", "pending_role"])
        .where("id", "=", teacher.user.uid)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ role: "teacher", pending_role: null });
    });
  });
});
