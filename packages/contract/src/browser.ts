// The web app runs under a Content-Security-Policy without 'unsafe-eval'. Zod compiles object
// parsers with `new Function` when it may; its probe for that is refused and reported as a CSP
// violation on every page that validates. In the browser the interpreted parsers are fast
// enough, and the policy stays strict and quiet. (The server keeps the compiled ones.)
//
// Zod keeps its settings on globalThis.__zod_globalConfig (zod/v4/core's `config()` reads and
// writes that object, and adopts one already there). Setting it here, before zod is loaded,
// keeps zod itself out of the first screen's JavaScript: it comes with the pages that validate.
// browser.test.ts checks that zod's own `config()` sees the setting.
type ZodGlobal = { __zod_globalConfig?: Record<string, unknown> };

export function validateWithoutEval(): void {
  const g = globalThis as ZodGlobal;
  g.__zod_globalConfig ??= {};
  g.__zod_globalConfig.jitless = true;
}
