import { afterAll, beforeAll } from "vitest";
import { type SignedInUser, signIn, type TestRole } from "./accounts.ts";
import type { AppOptions } from "./fixtures.ts";
import { createTestApp, type DialectName, type TestApp } from "./helpers.ts";

// What the tests of one describe block share, for files that set up once in beforeAll rather
// than through the fixtures of fixtures.ts: the test app, and people signed in to it. Each call
// registers the hooks of the block it is called in and returns an object that those hooks fill
// in, so read it inside tests and hooks, not while the block is being declared.

/** The block's test app: made in its beforeAll, closed in its afterAll. */
export function testAppFor(dialect: DialectName, options: AppOptions = {}): TestApp {
  const t = {} as TestApp;
  beforeAll(async () => {
    Object.assign(t, await createTestApp(dialect, options));
  });
  afterAll(async () => {
    await t.close?.();
  });
  return t;
}

/** A role, or a role and how to sign in (a name, unverified, pending…). */
type Part = TestRole | [TestRole, NonNullable<Parameters<typeof signIn>[2]>];

/**
 * People signed in to the block's app, one after another in the order given (after the app is
 * made, when testAppFor was called first).
 */
export function signedInFor<Name extends string>(
  t: TestApp,
  cast: Record<Name, Part>,
): Record<Name, SignedInUser> {
  const who = {} as Record<Name, SignedInUser>;
  beforeAll(async () => {
    for (const [name, part] of Object.entries(cast) as [Name, Part][]) {
      const [role, opts] = typeof part === "string" ? [part, {}] : part;
      who[name] = await signIn(t, role, opts);
    }
  });
  return who;
}

/**
 * The usual block: the dialect's test app with rate limits off (tests sign many people in from
 * one address) and the cast signed in to it.
 */
export function schoolFor<Name extends string>(
  dialect: DialectName,
  cast: Record<Name, Part>,
): { t: TestApp; people: Record<Name, SignedInUser> } {
  const t = testAppFor(dialect, { env: { RATE_LIMITS: "off" } });
  return { t, people: signedInFor(t, cast) };
}

/** The server's clock in tests that move it: give `now` to the app (its `services.now`). */
export function testClock() {
  let at = new Date();
  return {
    now: () => at,
    /** Back to the real time. */
    reset() {
      at = new Date();
    },
    tick(ms: number) {
      at = new Date(at.getTime() + ms);
    },
  };
}
