import { createHmac, hkdfSync } from "node:crypto";
import type { SigningKeys } from "./tokens.ts";

/**
 * A keyed digest of text for one purpose: HMAC-SHA256 under a key derived (HKDF) from the
 * server's signing key with `purpose` as its info, cut to 64 bits (16 hex digits). The same text
 * gives the same digest; each purpose has a key of its own, so digests made for two purposes
 * cannot be joined, and neither can be searched for guesses with a copy of the database alone.
 * Each purpose's key is derived once per signing key.
 */
export function signingKeyDigest(purpose: string): (keys: SigningKeys, text: string) => string {
  const keysOf = new WeakMap<SigningKeys, Buffer>();
  return (keys, text) => {
    let key = keysOf.get(keys);
    if (!key) {
      const material = keys.privateKey.export({ format: "der", type: "pkcs8" });
      key = Buffer.from(hkdfSync("sha256", material, "gradecast", purpose, 32));
      keysOf.set(keys, key);
    }
    return createHmac("sha256", key).update(text).digest("hex").slice(0, 16);
  };
}
