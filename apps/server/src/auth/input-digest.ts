import { createHmac, hkdfSync } from "node:crypto";
import type { SigningKeys } from "./tokens.ts";

// What a failed sign-in typed into the email field, when it names no account, is kept in the
// audit log only as this digest (issue 26): people type passwords there, and admins read the log.
// HMAC-SHA256 under a key derived (HKDF) from the ID-token signing key, cut to 64 bits: the same
// input gives the same digest, so repeated tries at one input can be told apart, while a copy
// of the database alone cannot be searched for guesses.
const keysOf = new WeakMap<SigningKeys, Buffer>();

export function inputDigest(keys: SigningKeys, input: string): string {
  let key = keysOf.get(keys);
  if (!key) {
    const material = keys.privateKey.export({ format: "der", type: "pkcs8" });
    key = Buffer.from(hkdfSync("sha256", material, "gradecast", "audit input digest v1", 32));
    keysOf.set(keys, key);
  }
  return createHmac("sha256", key).update(input).digest("hex").slice(0, 16);
}
