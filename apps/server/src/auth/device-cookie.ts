import { readNote, signNote } from "./signed-notes.ts";
import { type SigningKeys, sha256 } from "./tokens.ts";

// OWASP's device cookies: a browser that has signed in to an account is given a signed cookie
// naming that account (by a hash of its email) and a nonce of its own. A guesser who locks the
// account with wrong passwords from anywhere does not lock out its owner's browser, whose wrong
// tries are counted per cookie instead. Signed with the ID tokens' Ed25519 key; a year long.
export const deviceCookieDays = 365;
const deviceAudience = "gradecast-device";

/** Whose the cookie is: a hash of the email, never the email itself. */
const emailKey = (email: string) => sha256(`device:${email.trim().toLowerCase()}`);

export async function signDeviceCookie(
  keys: SigningKeys,
  email: string,
  now: Date,
): Promise<string> {
  const note = { claims: { em: emailKey(email) }, seconds: deviceCookieDays * 86_400 };
  return signNote(keys, deviceAudience, note, now);
}

/** The cookie's nonce when it is ours, unexpired, and for this email; otherwise undefined. */
export async function deviceNonce(
  keys: SigningKeys,
  cookie: string | undefined,
  email: string,
  now: Date,
): Promise<string | undefined> {
  if (!cookie || cookie.length > 2048 || !email) return undefined;
  const payload = await readNote(keys, cookie, deviceAudience, now);
  return payload?.em === emailKey(email) && typeof payload.jti === "string"
    ? payload.jti
    : undefined;
}
