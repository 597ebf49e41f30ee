import { signingKeyDigest } from "../auth/signing-key-digest.ts";
import type { SigningKeys } from "../auth/tokens.ts";

// The evaluation export names each student by a pseudonym: HMAC-SHA256 of their id under a key
// derived (HKDF) from the server's signing key in the data directory, cut to 64 bits. The same
// student has the same pseudonym in every export (rows can be joined across years), while the
// export alone, or with a copy of the database, cannot be turned back into ids.
const digest = signingKeyDigest("evaluation pseudonym v1");

export function pseudonymOf(keys: SigningKeys, studentId: string): string {
  return `s-${digest(keys, studentId)}`;
}
