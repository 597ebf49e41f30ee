import type { AuditEntryView, AuditPage } from "@gradecast/contract/admin";
import { describe, expect } from "vitest";
import { type SignedInUser, sendRefreshCookie, testPassword } from "../support/accounts.ts";
import { apiTests } from "../support/fixtures.ts";
import { dialects, errorOf, recordingMailer, type TestApp } from "../support/helpers.ts";

// The audit log API (issue 8): admins read who did what, when and from which address, with
// filters and pages, newest first; no entry ever holds a password, token or code.

const mailer = recordingMailer();
const outbox = mailer.sent;
const tests = apiTests({ services: { mailer } });

describe.each(dialects)("GET /api/admin/audit (%s)", (dialect) => {
  const test = tests[dialect];
  const secrets: string[] = [];

  test.beforeAll(({ admin }) => {
    secrets.push(testPassword, admin.token, admin.refreshToken);
  });

  async function read(t: TestApp, who: SignedInUser, query: string) {
    const res = await t.app.inject({
      method: "GET",
      url: `/api/admin/audit${query}`,
      headers: who.auth,
    });
    return res;
  }

  async function entries(
    t: TestApp,
    admin: SignedInUser,
    query: string,
  ): Promise<AuditEntryView[]> {
    const res = await read(t, admin, query);
    expect(res.statusCode).toBe(200);
    return (res.json() as AuditPage).items;
  }

  test("records sign-ins, successful and failed, with who, when and the caller's address", async ({
    t,
    signedIn,
    admin,
  }) => {
    const s = await signedIn("student", { name: "Audited Student" });
    secrets.push(s.token, s.refreshToken);
    const started = Date.now();
    const ok = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      remoteAddress: "10.1.2.3",
      payload: { email: s.email, password: testPassword },
    });
    expect(ok.statusCode).toBe(200);
    secrets.push((ok.json() as { token: string }).token);
    const bad = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      remoteAddress: "10.4.5.6",
      payload: { email: s.email, password: "not the password at all" },
    });
    expect(bad.statusCode).toBe(401);
    secrets.push("not the password at all");

    const logins = await entries(
      t,
      admin,
      `?action=auth.login&actor=${encodeURIComponent(s.email)}`,
    );
    const mine = logins.find((e) => e.ip === "10.1.2.3");
    expect(mine).toMatchObject({ actorId: s.user.uid, actorEmail: s.email, target: s.user.uid });
    expect(Math.abs(Date.parse(mine!.at) - started)).toBeLessThan(60_000);
    expect(logins.every((e) => e.action === "auth.login")).toBe(true);

    const failed = await entries(t, admin, `?action=auth.login_failed&actor=${s.user.uid}`);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ ip: "10.4.5.6", actorEmail: s.email });
  });

  test("records the reuse of a refresh token with the caller's address", async ({
    t,
    signedIn,
    admin,
  }) => {
    const s = await signedIn("student", { name: "Reused Session" });
    secrets.push(s.token, s.refreshToken);
    const refresh = (remoteAddress: string) =>
      sendRefreshCookie(t, "refresh", s.refreshToken, remoteAddress);
    const first = await refresh("10.8.8.8");
    expect(first.statusCode).toBe(200);
    secrets.push((first.json() as { token: string }).token);
    expect((await refresh("10.9.9.9")).statusCode).toBe(401);

    const reuses = await entries(t, admin, `?action=auth.refresh_reuse&actor=${s.user.uid}`);
    expect(reuses).toHaveLength(1);
    expect(reuses[0]).toMatchObject({ ip: "10.9.9.9", target: s.user.uid });
  });

  test("names the people of each entry: the actor's name, and the target account's name and email", async ({
    t,
    signedIn,
    admin,
  }) => {
    const s = await signedIn("student", { name: "Nora Named" });
    const res = await t.app.inject({
      method: "PATCH",
      url: `/api/admin/users/${s.user.uid}`,
      headers: admin.auth,
      payload: { role: "teacher" },
    });
    expect(res.statusCode).toBe(200);
    const [entry] = (
      await entries(t, admin, `?actor=${admin.user.uid}&action=admin.role_changed`)
    ).filter((e) => e.target === s.user.uid);
    expect(entry).toMatchObject({
      actorName: admin.user.name,
      actorEmail: admin.email,
      targetName: "Nora Named",
      targetEmail: s.email,
    });
    // A sign-in's target is the person themselves.
    const [login] = (await entries(
      t,
      admin,
      `?actor=${s.user.uid}&action=auth.login`,
    )) as AuditEntryView[];
    expect(login).toMatchObject({ actorName: "Nora Named", targetName: "Nora Named" });
  });

  test("records role changes and disables with the admin's address, filterable by actor", async ({
    t,
    signedIn,
    admin,
  }) => {
    const s = await signedIn("student");
    for (const body of [{ role: "teacher" }, { disabled: true }]) {
      const res = await t.app.inject({
        method: "PATCH",
        url: `/api/admin/users/${s.user.uid}`,
        headers: admin.auth,
        remoteAddress: "10.7.7.7",
        payload: body,
      });
      expect(res.statusCode).toBe(200);
    }
    const byAdmin = await entries(t, admin, `?actor=${admin.user.uid}`);
    const actions = byAdmin.filter((e) => e.target === s.user.uid).map((e) => e.action);
    expect(actions).toEqual(["admin.user_disabled", "admin.role_changed"]);
    expect(byAdmin.filter((e) => e.target === s.user.uid).every((e) => e.ip === "10.7.7.7")).toBe(
      true,
    );
    // Part of the actor's email, whatever the case, finds the same entries.
    const byEmail = await entries(
      t,
      admin,
      `?actor=${encodeURIComponent(admin.email.toUpperCase().slice(0, 12))}`,
    );
    expect(byEmail.map((e) => e.id)).toEqual(expect.arrayContaining(byAdmin.map((e) => e.id)));
  });

  test("filters by period: from inclusive, a `to` date includes its whole day", async ({
    t,
    signedIn,
    admin,
  }) => {
    // Sign-ins of its own to filter, a good one and failed ones: in a shuffled run no other test
    // may have left any yet.
    const s = await signedIn("student", { name: "Period Student" });
    for (let i = 0; i < 3; i++) {
      const failed = await t.app.inject({
        method: "POST",
        url: "/api/auth/login",
        remoteAddress: "10.9.8.7",
        payload: { email: s.email, password: `not the password ${i}` },
      });
      expect(failed.statusCode).toBe(401);
    }
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const all = await entries(t, admin, "?limit=100");
    expect(all.length).toBeGreaterThan(3);
    expect((await entries(t, admin, `?from=${today}&to=${today}&limit=100`)).length).toBe(
      all.length,
    );
    expect(await entries(t, admin, `?from=${tomorrow}`)).toEqual([]);
    expect(await entries(t, admin, `?to=${yesterday}`)).toEqual([]);
    const cut = all[2]!.at;
    const since = await entries(t, admin, `?from=${encodeURIComponent(cut)}&limit=100`);
    expect(since.every((e) => Date.parse(e.at) >= Date.parse(cut))).toBe(true);
    expect(since.map((e) => e.id)).toEqual(
      expect.arrayContaining(all.slice(0, 3).map((e) => e.id)),
    );
  });

  test("refuses bad filters with 400 naming the field", async ({ t, admin }) => {
    // The last two cursors are shaped like a real position, but out of the columns' range.
    const crafted = [
      ["2026-01-01 00:00:00+00", "9999999999999999999"],
      ["2026-13-01 00:00:00+00", "1"],
    ].map((position) => Buffer.from(JSON.stringify(position)).toString("base64url"));
    for (const [query, field] of [
      ["?from=yesterday", "from"],
      ["?from=2026-03-02&to=2026-03-01", "to"],
      ["?cursor=abc", "cursor"],
      ...crafted.map((cursor) => [`?cursor=${cursor}`, "cursor"]),
    ] as const) {
      const res = await read(t, admin, query);
      expect(res.statusCode, query).toBe(400);
      expect(errorOf(res.body).fields).toHaveProperty(field);
    }
  });

  test("pages newest first without gaps or repeats", async ({ t, admin }) => {
    const all = await entries(t, admin, "?limit=100");
    const times = all.map((e) => Date.parse(e.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 50; i++) {
      const res = await read(t, admin, `?limit=3${cursor ? `&cursor=${cursor}` : ""}`);
      const page = res.json() as AuditPage;
      seen.push(...page.items.map((e) => e.id));
      cursor = page.nextCursor;
      if (!cursor) break;
    }
    expect(seen).toEqual(all.map((e) => e.id));
  });

  test("never stores a password, token or code", async ({ t, signedIn, admin }) => {
    // Password change, admin-sent reset and its use, and a verification code.
    const s = await signedIn("teacher");
    secrets.push(s.token, s.refreshToken);
    const changed = await t.app.inject({
      method: "POST",
      url: "/api/me/password",
      headers: s.auth,
      payload: { currentPassword: testPassword, newPassword: "another long passphrase" },
    });
    expect(changed.statusCode).toBe(204);
    secrets.push("another long passphrase");
    outbox.length = 0;
    const sent = await t.app.inject({
      method: "POST",
      url: `/api/admin/users/${s.user.uid}/reset-password`,
      headers: admin.auth,
    });
    expect(sent.statusCode).toBe(202);
    const token = /token=([A-Za-z0-9_-]+)/.exec(outbox[0]?.text ?? "")?.[1];
    expect(token).toBeDefined();
    secrets.push(token!);
    const reset = await t.app.inject({
      method: "POST",
      url: "/api/auth/reset-password",
      payload: { token, password: "a third long passphrase" },
    });
    expect(reset.statusCode).toBe(200);
    secrets.push("a third long passphrase");
    outbox.length = 0;
    await signedIn("student");
    const code = /\b(\d{6})\b/.exec(outbox[0]?.text ?? "")?.[1];
    expect(code).toBeDefined();
    secrets.push(code!);

    const rows = await t.database.db.selectFrom("audit_log").selectAll().execute();
    const actions = new Set(rows.map((r) => r.action));
    for (const a of ["auth.password_changed", "auth.password_reset", "admin.password_reset_sent"]) {
      expect(actions).toContain(a);
    }
    const stored = JSON.stringify(rows);
    for (const secret of secrets) expect(stored).not.toContain(secret);
    for (const r of rows) {
      const details = (typeof r.details === "string" ? JSON.parse(r.details) : r.details) as object;
      for (const key of Object.keys(details)) {
        expect(key).not.toMatch(/password|token|code|secret|hash/i);
      }
    }
  });

  test("is for admins only", async ({ t, teacher }) => {
    expect((await read(t, teacher, "")).statusCode).toBe(403);
    const anon = await t.app.inject({ method: "GET", url: "/api/admin/audit" });
    expect(anon.statusCode).toBe(401);
  });
});
