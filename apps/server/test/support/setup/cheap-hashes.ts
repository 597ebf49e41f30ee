import * as lib from "@node-rs/argon2";
import { vi } from "vitest";
import { argon2 } from "../../../src/auth/passwords.ts";

// API tests sign hundreds of accounts up and in, and each costs an argon2id hash at the OWASP
// parameters (m=19456 KiB, t=2: about 40 ms of a core each, a minute of the suite in all). Here
// the same algorithm runs with the smallest memory and one pass; verification reads the
// parameters from the stored hash, so it is as cheap. It runs on the test's own thread, not on
// the server's pool of hashing threads. The tests of the parameters and of the pool
// (password-hashing.test.ts) put the pool back; child processes (npm run admin:create) are not
// affected.
vi.mock("@node-rs/argon2", async (importOriginal) => {
  const argon2 = await importOriginal<typeof import("@node-rs/argon2")>();
  return {
    ...argon2,
    hash: (password: string | Uint8Array, options?: import("@node-rs/argon2").Options) =>
      argon2.hash(password, { ...options, memoryCost: 64, timeCost: 1 }),
    // Watched, so a test can tell which hash a sign-in verified (auth.test.ts).
    verify: vi.fn(argon2.verify),
  };
});

argon2.hash = (password, options) => lib.hash(password, options);
argon2.verify = (hash, password) => lib.verify(hash, password).catch(() => false);
