import { hkdfSync, randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { embedTokenMinutes, type ReportScope } from "@gradecast/contract/analytics";
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import type { Config } from "../config.ts";

// The embed token of the report frame: a short-lived HS256 JWT that carries only the viewer and
// the scope of the report they may see (for staff, optionally one class: `cls`). Its key is its own (never the ID-token key), and its
// header type, issuer and audience differ from an ID token's, so neither token passes for the
// other: the ID-token verifier expects EdDSA, this one HS256 with the embed audience.
const ALG = "HS256";
const TYP = "gradecast-embed+jwt";
const ISSUER = "gradecast";
const AUDIENCE = "gradecast:analytics-report";
const SECRET_FILE = "embed-secret";

export interface EmbedClaims {
  userId: string;
  /** The session it was made for: signing out ends the report's address too. */
  sessionId: string;
  scope: ReportScope;
  /** A staff report of this class only; chosen when the token was made, checked there. */
  classId?: string | undefined;
}

export interface EmbedSigner {
  sign(claims: EmbedClaims, now: Date): Promise<{ token: string; expiresAt: Date }>;
  /** Null for an expired, tampered or foreign token. */
  verify(token: string, now: Date): Promise<EmbedClaims | null>;
}

/**
 * The key: derived from JWT_PRIVATE_KEY when set (so every instance sharing that key accepts
 * the others' embed tokens), otherwise a random secret generated once into DATA_DIR/embed-secret
 * with mode 0600.
 */
export async function loadEmbedKey(config: Pick<Config, "jwtPrivateKey" | "dataDir">) {
  if (config.jwtPrivateKey) {
    return new Uint8Array(
      hkdfSync("sha256", config.jwtPrivateKey, "gradecast", "analytics-embed-token/v1", 32),
    );
  }
  const file = path.join(config.dataDir, SECRET_FILE);
  await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  const read = async () => Buffer.from((await readFile(file, "utf8")).trim(), "base64url");
  try {
    const existing = await read();
    if (existing.length >= 32) return new Uint8Array(existing);
    throw new Error(`${file} holds fewer than 32 bytes; delete it to generate a new secret`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  try {
    await writeFile(file, `${randomBytes(32).toString("base64url")}\n`, {
      mode: 0o600,
      flag: "wx",
    });
  } catch (error) {
    // Another instance on the same DATA_DIR wrote it first: use theirs.
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  return new Uint8Array(await read());
}

export async function createEmbedSigner(
  config: Pick<Config, "jwtPrivateKey" | "dataDir">,
): Promise<EmbedSigner> {
  const key = await loadEmbedKey(config);
  return {
    async sign({ userId, sessionId, scope, classId }, now) {
      const iat = Math.floor(now.getTime() / 1000);
      const exp = iat + embedTokenMinutes * 60;
      const token = await new SignJWT({
        scope,
        sid: sessionId,
        ...(classId ? { cls: classId } : {}),
      })
        .setProtectedHeader({ alg: ALG, typ: TYP })
        .setSubject(userId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(iat)
        .setExpirationTime(exp)
        .sign(key);
      return { token, expiresAt: new Date(exp * 1000) };
    },
    async verify(token, now) {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: [ALG],
          typ: TYP,
          issuer: ISSUER,
          audience: AUDIENCE,
          currentDate: now,
          requiredClaims: ["sub", "exp", "iat"],
        });
        const { scope, sid, cls } = payload;
        if (scope !== "staff" && scope !== "student") return null;
        if (typeof payload.sub !== "string" || typeof sid !== "string") return null;
        if (cls !== undefined && (typeof cls !== "string" || scope !== "staff")) return null;
        return { userId: payload.sub, sessionId: sid, scope, classId: cls };
      } catch (error) {
        if (error instanceof joseErrors.JOSEError) return null;
        throw error;
      }
    },
  };
}
