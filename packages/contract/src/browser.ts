import { config } from "zod/v4/core";

// The web app runs under a Content-Security-Policy without 'unsafe-eval'. Zod compiles object
// parsers with `new Function` when it may; its probe for that is refused and reported as a CSP
// violation on every page that validates. In the browser the interpreted parsers are fast
// enough, and the policy stays strict and quiet. (The server keeps the compiled ones.)
export function validateWithoutEval(): void {
  config({ jitless: true });
}
