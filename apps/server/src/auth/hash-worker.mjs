// One argon2id hash or verification on a thread of auth/passwords.ts's pool (Piscina). Plain
// JavaScript, so that the same file runs under the bundled server and under the tests' loader.
import { hashSync, verifySync } from "@node-rs/argon2";

/** @param {{ op: "hash", password: string, options: import("@node-rs/argon2").Options } | { op: "verify", hash: string, password: string }} task */
export default function run(task) {
  if (task.op === "hash") return hashSync(task.password, task.options);
  // A malformed stored hash is a wrong password.
  try {
    return verifySync(task.hash, task.password);
  } catch {
    return false;
  }
}
