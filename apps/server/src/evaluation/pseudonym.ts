import { createHmac, hkdfSync } from "node:crypto";
import type { SigningKeys } from "../auth/tokens.ts";

// The evaluation export names each student by a pseudonym: HMAC-SHA256 of their id under a key
// derived (HKDF) from the server's signing key in the data directory, cut to 64 bits. The same
// student has the same pseudonym in every export (rows can be joined across years), while the
// export alone, or with a copy of the database, cannot be turned back into ids.
const keysOf = new WeakMap<SigningKeys, Buffer>();

export function pseudonymOf(keys: SigningKeys, studentId: string): string {
  let key = keysOf.get(keys);
  if (!key) {
    const material = keys.privateKey.export({ format: "der", type: "pkcs8" });
    key = Buffer.from(hkdfSync("sha256", material, "gradecast", "evaluation pseudonym v1", 32));
    keysOf.set(keys, key);
  }
  return `s-${createHmac("sha256", key).update(studentId).digest("hex").slice(0, 16)}`;
}
