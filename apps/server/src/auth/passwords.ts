import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Options } from "@node-rs/argon2";
import { Piscina } from "piscina";
import { busy } from "../domain-errors.ts";
import { once } from "../memo.ts";

// Password hashing: argon2id with the OWASP minimum (m=19456 KiB, t=2, p=1), about 40 ms of a
// core each. Hashes run on worker threads of their own (hash-worker.mjs), one per core, at a
// lower CPU priority than the event loop (nice +10, Linux's per-thread priority): a storm of
// sign-ins uses every core the rest of the server leaves idle, and the event loop, which
// serves every other request, is never kept waiting behind a hash (bench/auth: with a hash
// per core on libuv's pool at the same priority, the loop's p99 delay doubled; with one hash
// fewer than the cores, sign-ins reached half of what the cores allow).
const options: Options = {
  algorithm: 2 /* Argon2id */,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
};

/** The threads that hash: made at the first hash, gone after a minute without one. */
const pool = once(
  () =>
    new Piscina({
      filename: new URL("./hash-worker.mjs", import.meta.url).href,
      minThreads: 0,
      maxThreads: os.availableParallelism(),
      idleTimeout: 60_000,
      niceIncrement: 10,
    }),
);

/** argon2 on the pool's threads. */
export const pooled = {
  hash: (password: string, hashOptions: Options): Promise<string> =>
    pool().run({ op: "hash", password, options: hashOptions }),
  verify: (hash: string, password: string): Promise<boolean> =>
    pool().run({ op: "verify", hash, password }),
};
/** What hashPassword and verifyPassword call: the pool (API tests: test/support/setup/cheap-hashes.ts). */
export const argon2 = { ...pooled };

// At most one hash per core at once; a burst of sign-ins queues here.
export const hashConcurrency = os.availableParallelism();
// The queue is bounded: past it a call answers 503 with Retry-After at once, instead of holding
// its connection while a flood (of sign-ins, resets, registrations) is worked through.
export const hashQueueLimit = 64;
const hashSlots = { running: 0, waiting: [] as (() => void)[] };

async function limited<T>(work: () => Promise<T>): Promise<T> {
  const slots = hashSlots;
  // A finishing hash hands its slot straight to the next waiter, so the count never overshoots.
  if (slots.running >= hashConcurrency) {
    if (slots.waiting.length >= hashQueueLimit) throw busy();
    await new Promise<void>((resolve) => slots.waiting.push(resolve));
  } else slots.running++;
  try {
    return await work();
  } finally {
    const next = slots.waiting.shift();
    if (next) next();
    else slots.running--;
  }
}

/** Hashes running and waiting now (for tests and diagnostics). */
export function hashLoad(): { running: number; waiting: number } {
  return { running: hashSlots.running, waiting: hashSlots.waiting.length };
}

export function hashPassword(password: string): Promise<string> {
  return limited(() => argon2.hash(password, options));
}

export function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  // A malformed stored hash is a wrong password; a full queue is not (503 from limited).
  return limited(() => argon2.verify(passwordHash, password));
}

// A real hash of a random password, verified when the email is unknown so that a failed login
// costs the same work whether or not the account exists.
const dummy = once(() => hashPassword(randomBytes(24).toString("base64url")));
/** Computes the dummy hash ahead of the first sign-in (called at start). */
export function prepareDummyHash(): void {
  void dummy();
}
export async function verifyDummy(password: string): Promise<false> {
  await verifyPassword(await dummy(), password);
  return false;
}

// NIST SP 800-63B: refuse passwords found in lists of commonly used ones. The list ships beside
// this file (see the header of common-passwords.txt for its origin) and is loaded once.
const here = path.dirname(fileURLToPath(import.meta.url));
export const commonPasswords = once(
  () =>
    new Set(
      readFileSync(path.join(here, "common-passwords.txt"), "utf8")
        .split("\n")
        .map((line) => line.trim().toLowerCase())
        .filter((line) => line.length > 0 && !line.startsWith("#")),
    ),
);

export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.trim().toLowerCase());
}
