import { test as base } from "vitest";
import type { AppOptions as BuildOptions } from "../../src/app.ts";
import type { Services } from "../../src/services.ts";
import { type SignedInUser, signIn, type TestRole } from "./accounts.ts";
import { createTestApp, type DialectName, dialects, type TestApp } from "./helpers.ts";

// The one way an API test gets its app and its people: Vitest fixtures (`test.extend`). A file
// that runs on each database makes one `apiTest` per dialect, at its top level (Vitest sets
// file-scoped fixtures up there, not inside a describe):
//
//   const tests = apiTests({ env: { RATE_LIMITS: "off" }, people: { head: ["teacher", { name: "Ada" }] } });
//   describe.each(dialects)("reports on %s", (dialect) => {
//     const test = tests[dialect];
//     test.beforeAll(async ({ t, people }) => { ... data the block's tests read ... });
//     test("files a report", async ({ t, signedIn, people }) => {
//       const teacher = await signedIn("teacher");
//       ...
//
// `t` is made once for the file the first time a test or hook asks for it, and closed after the
// file; `signedIn` signs a new account in for the calling test; `student`, `teacher` and `admin`
// are accounts made once for the file, for tests that only read with them; `people` are the
// accounts named in the options, made once for the file in the order given; `clock` is the
// server's clock when the options ask for one (`clock: true`). Each `apiTests` call is an app of
// its own: a describe block that must not see another's data calls it again.

/** A role, or a role and how to sign in (a name, unverified, pending…). */
export type Person = TestRole | [TestRole, NonNullable<Parameters<typeof signIn>[2]>];

/** The `people` fixture of a cast, for a file's helpers that take it. */
export type People<Cast> = Record<keyof Cast & string, SignedInUser>;

export interface AppOptions {
  env?: Record<string, string>;
  services?: Partial<Services>;
  jobHandlers?: BuildOptions["jobHandlers"];
  jobOptions?: BuildOptions["jobOptions"];
  runJobs?: BuildOptions["runJobs"];
}

export interface ApiTestOptions<Name extends string = never> extends AppOptions {
  /** The app's clock is the `clock` fixture, which tests move (services.now). */
  clock?: boolean;
  /** Accounts made once for the file, signed in one after another in this order. */
  people?: Record<Name, Person>;
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

export type TestClock = ReturnType<typeof testClock>;

export function apiTest<Name extends string = never>(
  dialect: DialectName,
  options: ApiTestOptions<Name> = {},
) {
  return base
    .extend("appOptions", { scope: "file" }, { dialect, ...options })
    .extend("clock", { scope: "file" }, (): TestClock => testClock())
    .extend(
      "t",
      { scope: "file" },
      async ({ appOptions, clock }, { onCleanup }): Promise<TestApp> => {
        const { dialect: name, env, services, clock: moved, ...jobs } = appOptions;
        const t = await createTestApp(name, {
          env,
          services: moved ? { ...services, now: clock.now } : services,
          jobHandlers: jobs.jobHandlers,
          jobOptions: jobs.jobOptions,
          runJobs: jobs.runJobs,
        });
        onCleanup(() => t.close());
        return t;
      },
    )
    .extend(
      "signedIn",
      { scope: "file" },
      ({ t }) =>
        (role: TestRole, opts?: Parameters<typeof signIn>[2]): Promise<SignedInUser> =>
          signIn(t, role, opts),
    )
    .extend("student", { scope: "file" }, ({ signedIn }) => signedIn("student"))
    .extend("teacher", { scope: "file" }, ({ signedIn }) => signedIn("teacher"))
    .extend("admin", { scope: "file" }, ({ signedIn }) => signedIn("admin"))
    .extend(
      "people",
      { scope: "file" },
      async ({ signedIn, appOptions }): Promise<Record<Name, SignedInUser>> => {
        const who = {} as Record<Name, SignedInUser>;
        const cast = (appOptions.people ?? {}) as Record<Name, Person>;
        for (const [name, person] of Object.entries(cast) as [Name, Person][]) {
          const [role, opts] = typeof person === "string" ? [person, {}] : person;
          who[name] = await signedIn(role, opts);
        }
        return who;
      },
    );
}

/** One `apiTest` for each database the API tests run on (see `dialects`). */
export function apiTests<Name extends string = never>(options: ApiTestOptions<Name> = {}) {
  return Object.fromEntries(dialects.map((d) => [d, apiTest(d, options)])) as Record<
    DialectName,
    ReturnType<typeof apiTest<Name>>
  >;
}
