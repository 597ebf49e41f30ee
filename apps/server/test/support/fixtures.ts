import { test as base } from "vitest";
import type { Services } from "../../src/services.ts";
import { type SignedInUser, signIn, type TestRole } from "./accounts.ts";
import { createTestApp, type DialectName, dialects, type TestApp } from "./helpers.ts";

// Fixtures of the API tests (Vitest `test.extend`), for what most files set up by hand in
// beforeAll/afterAll: a test app on one database, closed after the file; and accounts signed in
// through the API. A file that runs on each database makes one `apiTest` per dialect, at its
// top level (Vitest sets file-scoped fixtures up there, not inside a describe):
//
//   const tests = apiTests({ env: { RATE_LIMITS: "off" } });
//   describe.each(dialects)("reports on %s", (dialect) => {
//     const test = tests[dialect];
//     test("files a report", async ({ t, signedIn }) => {
//       const teacher = await signedIn("teacher");
//       ...
//
// `t` is made once for the file (as the beforeAll did) the first time a test asks for it;
// `signedIn` signs a new account in for the calling test; `student`, `teacher` and `admin` are
// accounts made once for the file, for tests that only read with them.

export interface AppOptions {
  env?: Record<string, string>;
  services?: Partial<Services>;
}

export function apiTest(dialect: DialectName, options: AppOptions = {}) {
  return base
    .extend("appOptions", { scope: "file" }, { dialect, ...options })
    .extend("t", { scope: "file" }, async ({ appOptions }, { onCleanup }): Promise<TestApp> => {
      const { dialect: name, ...rest } = appOptions;
      const t = await createTestApp(name, rest);
      onCleanup(() => t.close());
      return t;
    })
    .extend(
      "signedIn",
      { scope: "file" },
      ({ t }) =>
        (role: TestRole, opts?: Parameters<typeof signIn>[2]): Promise<SignedInUser> =>
          signIn(t, role, opts),
    )
    .extend("student", { scope: "file" }, ({ signedIn }) => signedIn("student"))
    .extend("teacher", { scope: "file" }, ({ signedIn }) => signedIn("teacher"))
    .extend("admin", { scope: "file" }, ({ signedIn }) => signedIn("admin"));
}

/** One `apiTest` for each database the API tests run on (see `dialects`). */
export function apiTests(options: AppOptions = {}) {
  return Object.fromEntries(dialects.map((d) => [d, apiTest(d, options)])) as Record<
    DialectName,
    ReturnType<typeof apiTest>
  >;
}
