import { randomUUID } from "node:crypto";
import { type JWTPayload, jwtVerify, SignJWT } from "jose";
import { issuer, type SigningKeys } from "./tokens.ts";

// Short notes the server signs for itself with the ID tokens' Ed25519 key, each for one purpose
// named by its audience (a device cookie, the step between a password and an MFA code), so that
// no note passes for another or for an ID token.

/** A note for `audience`, valid `seconds` from `now`, with its own id (jti). */
export function signNote(
  keys: SigningKeys,
  audience: string,
  note: { claims?: JWTPayload; subject?: string; seconds: number },
  now: Date,
): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  const jwt = new SignJWT(note.claims ?? {})
    .setProtectedHeader({ alg: "EdDSA" })
    .setIssuer(issuer)
    .setAudience(audience)
    .setJti(randomUUID())
    .setIssuedAt(iat)
    .setExpirationTime(iat + note.seconds);
  return (note.subject ? jwt.setSubject(note.subject) : jwt).sign(keys.privateKey);
}

/** A note's claims when it is ours, for `audience` and unexpired; otherwise undefined. */
export async function readNote(
  keys: SigningKeys,
  token: string,
  audience: string,
  now: Date,
): Promise<JWTPayload | undefined> {
  try {
    const { payload } = await jwtVerify(token, keys.publicKey, {
      issuer,
      audience,
      algorithms: ["EdDSA"],
      currentDate: now,
    });
    return payload;
  } catch {
    // Expired, tampered or foreign: the same answer.
    return undefined;
  }
}
