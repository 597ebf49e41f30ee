import { afterAll, describe, expect, it } from "vitest";
import { eachConcurrently } from "./concurrently.ts";
import { startCrashServer, writeUntilKilled } from "./crash-load.ts";
import { call, dialects, teacherSession } from "./proof-helpers.ts";

// Crash safety (issue 9): 500 report creations from several concurrent clients against the real
// server process, SIGKILL in the middle, a restart on the same data. Every creation the server
// acknowledged with 201 must be there, byte for byte, and the restart must be clean.
const total = Number(process.env.CRASH_REPORTS ?? 500);
const clients = 8;
const killAfter = Math.round(total * 0.4);

const behaviors = ["Excellent", "Good", "Average", "Needs Improvement", "Poor"];
function reportNumber(i: number) {
  return {
    studentName: `Crash ${String(i).padStart(3, "0")} O'Brien`,
    course: `Course ${i % 7}`,
    marks: i % 101,
    attendance: (i * 7) % 101,
    assignments: i % 7,
    behavior: behaviors[i % behaviors.length],
    feedback: `Report ${i}: ${"ok ".repeat(i % 40)}end`,
  };
}

describe.each(dialects)("crash safety on $dialect", ({ dialect }) => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => {});
  });

  it(`keeps every acknowledged report of ${total} creations through a SIGKILL`, async () => {
    const crash = await startCrashServer(dialect, { TEACHER_SIGNUP: "open" }, cleanups);
    const { token, email } = await teacherSession(crash.server);

    // The kill lands in the middle: some creations acknowledged, some never happened.
    const base = crash.server.url;
    const acknowledged = await writeUntilKilled(crash.server, {
      total,
      clients,
      killAfter,
      send: (i) =>
        call(base, "POST", "/api/reports", { body: reportNumber(i), token, timeoutMs: 10_000 }),
      acknowledgedId: (res) =>
        res.status === 201 ? (res.body as { report: { id: string } }).report.id : undefined,
    });

    // Restart on the same data: the server comes up healthy, with nothing to repair by hand.
    const { server, health } = await crash.restart();
    expect(health.body).toMatchObject({ status: "ok", db: "ok" });

    // The ID token is still valid (its key is kept in DATA_DIR): read every acknowledged report.
    const login = await call(server.url, "POST", "/api/auth/login", {
      body: { email, password: "correct horse battery staple" },
    });
    expect(login.status).toBe(200);
    const fresh = (login.body as { token: string }).token;
    const ids = [...acknowledged.keys()];
    const missing: string[] = [];
    const damaged: string[] = [];
    await eachConcurrently(ids, 6, async (id) => {
      const res = await call(server.url, "GET", `/api/reports/${id}`, { token: fresh });
      if (res.status !== 200) {
        missing.push(`${id}: ${res.status}`);
        return;
      }
      const { report } = res.body as { report: Record<string, unknown> };
      const n = acknowledged.get(id);
      const sent = n === undefined ? undefined : reportNumber(n);
      const same = Object.entries(sent ?? {}).every(([k, v]) => report[k] === v);
      if (!same) damaged.push(`${id}: ${JSON.stringify(report)}`);
    });
    expect(missing).toEqual([]);
    expect(damaged).toEqual([]);

    // No torn rows either: every stored report is one of those sent, whole.
    const stored: Array<Record<string, unknown>> = [];
    let page: string | null = "";
    while (page !== null) {
      const q = `/api/reports?limit=100${page ? `&cursor=${encodeURIComponent(page)}` : ""}`;
      const res = await call(server.url, "GET", q, { token: fresh });
      expect(res.status).toBe(200);
      const body = res.body as { items: Array<Record<string, unknown>>; nextCursor: string | null };
      stored.push(...body.items);
      page = body.nextCursor;
    }
    expect(stored.length).toBeGreaterThanOrEqual(acknowledged.size);
    expect(stored.length).toBeLessThanOrEqual(total);
    for (const report of stored) {
      const n = Number(/^Crash (\d{3})/.exec(String(report.studentName))?.[1]);
      expect(report).toMatchObject(reportNumber(n));
    }

    // The restarted server takes new work.
    const after = await call(server.url, "POST", "/api/reports", {
      body: reportNumber(999),
      token: fresh,
    });
    expect(after.status).toBe(201);
    console.log(
      `crash on ${dialect}: ${acknowledged.size} of ${total} acknowledged before SIGKILL, ${stored.length} stored after restart, none lost`,
    );
  });
});
