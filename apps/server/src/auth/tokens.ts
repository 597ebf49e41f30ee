import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
} from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Role } from "@gradecast/contract/roles";
import { jwtVerify, SignJWT } from "jose";
import type { Config } from "../config.ts";

// ID tokens: EdDSA (Ed25519) JWTs of 15 minutes, signed with JWT_PRIVATE_KEY or with a key
// generated once into DATA_DIR/jwt-ed25519.pem (mode 0600) and reused at every start.
export const idTokenSeconds = 15 * 60;
export const issuer = "gradecast";
export const audience = "gradecast";

export interface SigningKeys {
  privateKey: KeyObject;
  publicKey: KeyObject;
}

export async function loadSigningKeys(config: Config): Promise<SigningKeys> {
  let pem = config.jwtPrivateKey;
  if (!pem) {
    const file = path.join(config.dataDir, "jwt-ed25519.pem");
    if (existsSync(file)) {
      pem = await readFile(file, "utf8");
    } else {
      await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
      const { privateKey } = generateKeyPairSync("ed25519");
      const fresh = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
      try {
        await writeFile(file, fresh, { mode: 0o600, flag: "wx" });
        pem = fresh;
      } catch (error) {
        // Another process created it first: use theirs.
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        pem = await readFile(file, "utf8");
      }
      // A key file another account created keeps the mode its owner gave it.
      await chmod(file, 0o600).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== "EPERM") throw error;
      });
    }
  }
  const privateKey = createPrivateKey(pem);
  if (privateKey.asymmetricKeyType !== "ed25519") {
    throw new Error("JWT_PRIVATE_KEY must be an Ed25519 private key");
  }
  return { privateKey, publicKey: createPublicKey(privateKey) };
}

export async function signIdToken(
  keys: SigningKeys,
  claims: { sub: string; role: Role; sid: string },
  now: Date,
): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  // sid: the session family, so that a password change can keep the caller's own session.
  return new SignJWT({ role: claims.role, sid: claims.sid })
    .setProtectedHeader({ alg: "EdDSA", typ: "JWT" })
    .setSubject(claims.sub)
    .setIssuer(issuer)
    .setAudience(audience)
    .setIssuedAt(iat)
    .setExpirationTime(iat + idTokenSeconds)
    .sign(keys.privateKey);
}

export interface IdTokenClaims {
  sub: string;
  sid: string | undefined;
}

// Checking an Ed25519 signature costs about 0.3 ms, paid by every signed-in call. What a valid
// token says never changes, and only its expiry depends on the time, so each token that passed
// is remembered (per key) until its `exp`. Only tokens that passed are kept, so a caller cannot
// fill the map with garbage; the user behind the token is still read on every call.
const verifiedLimit = 10_000;
const verified = new WeakMap<SigningKeys, Map<string, IdTokenClaims & { exp: number }>>();

/** The claims of a valid ID token, or null for an expired, tampered or foreign one. */
export async function verifyIdToken(
  keys: SigningKeys,
  token: string,
  now: Date,
): Promise<IdTokenClaims | null> {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  let known = verified.get(keys);
  const hit = known?.get(token);
  // jose refuses a token once now >= exp (clockTolerance 0); the same rule here.
  if (hit) {
    if (nowSeconds < hit.exp) return { sub: hit.sub, sid: hit.sid };
    known?.delete(token);
    return null;
  }
  try {
    const { payload } = await jwtVerify(token, keys.publicKey, {
      algorithms: ["EdDSA"],
      issuer,
      audience,
      currentDate: now,
      clockTolerance: 0,
    });
    if (typeof payload.sub !== "string" || typeof payload.exp !== "number") return null;
    const claims = {
      sub: payload.sub,
      sid: typeof payload.sid === "string" ? payload.sid : undefined,
    };
    if (!known) {
      known = new Map();
      verified.set(keys, known);
    }
    // Full: drop the oldest entry (a Map iterates in insertion order).
    if (known.size >= verifiedLimit) known.delete(known.keys().next().value as string);
    known.set(token, { ...claims, exp: payload.exp });
    return claims;
  } catch {
    return null;
  }
}

/** Random secret tokens (refresh, reset): 32 bytes, base64url. */
export function randomToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Stored form of a secret: its SHA-256 (the secrets are random, so no salt is needed). */
export function sha256(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}
