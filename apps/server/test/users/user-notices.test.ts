import pg from "pg";
import { afterAll, describe, expect, vi } from "vitest";
import { apiTest } from "../support/fixtures.ts";
import { errorOf, type TestApp } from "../support/helpers.ts";

// PostgreSQL only: each instance remembers the users it has checked and forgets them when the
// database says the users table changed (migration 0004, db/user-notices.ts). These tests
// write through a connection of their own, as another instance or `npm run admin:create`
// would, so nothing passes through the app's own driver.
const test = apiTest("postgres");

describe.skipIf(!process.env.TEST_DATABASE_URL)("user change notices (postgres)", () => {
  let other: pg.Client;

  test.beforeAll(async ({ t }) => {
    other = new pg.Client({ connectionString: t.databaseUrl });
    await other.connect();
  });

  afterAll(async () => {
    await other.end();
  });

  const reports = (t: TestApp, auth: Record<string, string>) =>
    t.app.inject({ method: "GET", url: "/api/reports", headers: auth });
  // The count moves on every call while the app does not trust its cache of users.
  const trusting = (t: TestApp) => {
    const before = t.database.userWrites();
    return t.database.userWrites() === before;
  };

  test("applies a role change and a disable made by another process as soon as the notice arrives", async ({
    t,
    signedIn,
  }) => {
    await vi.waitFor(() => expect(trusting(t)).toBe(true), { timeout: 5_000 });
    const s = await signedIn("student");
    expect((await reports(t, s.auth)).statusCode).toBe(403);

    await other.query("update users set role = 'teacher' where id = $1", [s.user.uid]);
    await vi.waitFor(async () => expect((await reports(t, s.auth)).statusCode).toBe(200), {
      timeout: 3_000,
      interval: 20,
    });

    await other.query("update users set disabled = true where id = $1", [s.user.uid]);
    await vi.waitFor(
      async () => {
        const res = await reports(t, s.auth);
        expect(res.statusCode).toBe(401);
        expect(errorOf(res.body).code).toBe("account_disabled");
      },
      { timeout: 3_000, interval: 20 },
    );
  });

  test("refuses the ID token of a session ended by another process once the notice arrives", async ({
    t,
    signedIn,
  }) => {
    await vi.waitFor(() => expect(trusting(t)).toBe(true), { timeout: 5_000 });
    const s = await signedIn("teacher");
    const kept = await signedIn("teacher");
    expect((await reports(t, s.auth)).statusCode).toBe(200);
    expect((await reports(t, kept.auth)).statusCode).toBe(200);

    // As a logout on another instance does (migration 0006 sends the notice).
    await other.query("update sessions set revoked_at = now() where user_id = $1", [s.user.uid]);
    await vi.waitFor(async () => expect((await reports(t, s.auth)).statusCode).toBe(401), {
      timeout: 3_000,
      interval: 20,
    });
    expect((await reports(t, kept.auth)).statusCode).toBe(200);
  });

  test("trusts nothing it remembers while its listening connection is down, then listens again", async ({
    t,
    signedIn,
  }) => {
    await vi.waitFor(() => expect(trusting(t)).toBe(true), { timeout: 5_000 });
    const s = await signedIn("teacher");
    expect((await reports(t, s.auth)).statusCode).toBe(200);

    const cut = await other.query(
      "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = 'gradecast-user-notices'",
    );
    expect(cut.rowCount).toBe(1);
    await vi.waitFor(() => expect(trusting(t)).toBe(false), { timeout: 3_000, interval: 5 });

    // No notice can arrive now; the change is still seen on the next call.
    await other.query("update users set disabled = true where id = $1", [s.user.uid]);
    const refused = await reports(t, s.auth);
    expect(refused.statusCode).toBe(401);
    expect(errorOf(refused.body).code).toBe("account_disabled");

    // The connection comes back by itself, and notices flow again.
    await vi.waitFor(() => expect(trusting(t)).toBe(true), { timeout: 5_000, interval: 50 });
    await other.query("update users set disabled = false where id = $1", [s.user.uid]);
    await vi.waitFor(async () => expect((await reports(t, s.auth)).statusCode).toBe(200), {
      timeout: 3_000,
      interval: 20,
    });
  });
});
