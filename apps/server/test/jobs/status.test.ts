import { randomUUID } from "node:crypto";
import { describe, expect } from "vitest";
import { enqueueJob, type JobHandler } from "../../src/jobs/queue.ts";
import { randomIp, type SignedInUser } from "../support/accounts.ts";
import { apiTests } from "../support/fixtures.ts";
import { dialects, errorOf, type TestApp } from "../support/helpers.ts";

// GET /api/jobs/:id: the person who started a job follows its progress, an admin sees any job,
// anybody else gets the answer of a job that does not exist (404), and a caller not signed in
// gets 401. A failed job says why in a sentence, never with a stack trace.

const handlers: Record<string, JobHandler> = {
  "test.progress": async ({ progress }) => {
    await progress(3, 4);
    await progress(4, 4);
  },
  "test.broken": async () => {
    throw new Error("The class has no students any more\n    at recompute (/srv/x.ts:9:9)");
  },
};

const tests = apiTests({
  env: { RATE_LIMITS: "off" },
  jobHandlers: handlers,
  jobOptions: { retryBaseMs: 0, maxAttempts: 2 },
});

/** GET /api/jobs/:id with these headers. */
const jobStatus = (t: TestApp, headers: Record<string, string>, id: string) =>
  t.app.inject({ method: "GET", url: `/api/jobs/${id}`, headers, remoteAddress: randomIp() });

/** A job of `kind` that `who` starts, once the runner is done with it: its status, read by `who`. */
async function ranJob(t: TestApp, who: SignedInUser, kind: string) {
  const id = await enqueueJob(t.database.db, { kind, key: randomUUID(), createdBy: who.user.uid });
  await t.app.jobs.idle();
  const res = await jobStatus(t, who.auth, id);
  expect(res.statusCode).toBe(200);
  return res;
}

describe.each(dialects)("job status on %s", (dialect) => {
  const test = tests[dialect];

  test("the creator and an admin see a job's progress; nobody else", async ({
    t,
    signedIn,
    admin,
  }) => {
    const teacher = await signedIn("teacher");
    const otherTeacher = await signedIn("teacher");
    const student = await signedIn("student");
    const id = await enqueueJob(t.database.db, {
      kind: "test.progress",
      key: randomUUID(),
      createdBy: teacher.user.uid,
    });
    const get = (headers: Record<string, string>, jobId = id) => jobStatus(t, headers, jobId);

    // A job no instance has taken yet (a kind this one does not run): queued, nothing done.
    const waiting = await enqueueJob(t.database.db, {
      kind: "test.elsewhere",
      key: randomUUID(),
      createdBy: teacher.user.uid,
    });
    const queued = await get(teacher.auth, waiting);
    expect(queued.statusCode).toBe(200);
    expect(queued.json()).toMatchObject({
      id: waiting,
      kind: "test.elsewhere",
      state: "queued",
      progress: { done: 0, total: null },
      startedAt: null,
      finishedAt: null,
      error: null,
    });
    expect(queued.headers["cache-control"]).toBe("no-store");

    await t.app.jobs.idle();
    for (const who of [teacher, admin]) {
      const res = await get(who.auth);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ id, state: "done", progress: { done: 4, total: 4 } });
      expect(typeof body.startedAt).toBe("string");
      expect(typeof body.finishedAt).toBe("string");
    }
    for (const who of [otherTeacher, student]) {
      const res = await get(who.auth);
      expect(res.statusCode).toBe(404);
      expect(errorOf(res.body).code).toBe("not_found");
    }
    const anonymous = await get({});
    expect(anonymous.statusCode).toBe(401);
    // A job that does not exist, and an id that is no id, answer as another's job does.
    expect((await get(teacher.auth, randomUUID())).statusCode).toBe(404);
    expect((await get(admin.auth, "not-a-job")).statusCode).toBe(404);
  });

  test("a student follows the job they started", async ({ t, signedIn }) => {
    const res = await ranJob(t, await signedIn("student"), "test.progress");
    expect(res.json()).toMatchObject({ state: "done" });
  });

  test("a failed job says why, without a stack trace", async ({ t, signedIn }) => {
    const res = await ranJob(t, await signedIn("teacher"), "test.broken");
    const body = res.json();
    expect(body.state).toBe("failed");
    expect(body.error).toBe("The class has no students any more");
    expect(res.body).not.toContain("/srv/");
  });
});
