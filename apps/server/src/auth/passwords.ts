import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { hash, type Options, verify } from "@node-rs/argon2";

// Password hashing: argon2id with the OWASP minimum (m=19456 KiB, t=2, p=1). @node-rs/argon2's
// async hash and verify run on the libuv thread pool, so the event loop keeps serving requests.
const options: Options = {
  algorithm: 2 /* Argon2id */,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
};

// At most (cores - 1) hashes at once, at least 1: a burst of sign-ins queues here instead of
// taking every core (and every libuv thread) from the event loop and from file and DNS work.
export const hashConcurrency = Math.max(1, os.availableParallelism() - 1);
let running = 0;
const waiting: (() => void)[] = [];

async function limited<T>(work: () => Promise<T>): Promise<T> {
  // A finishing hash hands its slot straight to the next waiter, so the count never overshoots.
  if (running >= hashConcurrency) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

/** Hashes running and waiting now (for tests and diagnostics). */
export function hashLoad(): { running: number; waiting: number } {
  return { running, waiting: waiting.length };
}

export function hashPassword(password: string): Promise<string> {
  return limited(() => hash(password, options));
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await limited(() => verify(passwordHash, password));
  } catch {
    return false;
  }
}

// A real hash of a random password, verified when the email is unknown so that a failed login
// costs the same work whether or not the account exists.
let dummyHash: Promise<string> | undefined;
function dummy(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(24).toString("base64url"));
  return dummyHash;
}
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
let common: Set<string> | undefined;
export function commonPasswords(): Set<string> {
  if (!common) {
    const text = readFileSync(path.join(here, "common-passwords.txt"), "utf8");
    common = new Set(
      text
        .split("\n")
        .map((line) => line.trim().toLowerCase())
        .filter((line) => line.length > 0 && !line.startsWith("#")),
    );
  }
  return common;
}

export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.trim().toLowerCase());
}
