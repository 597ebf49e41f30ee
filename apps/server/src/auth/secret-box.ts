import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import type { SigningKeys } from "./tokens.ts";

// TOTP secrets must be readable to check a code, so they cannot be hashed: they are encrypted
// (AES-256-GCM) with a key derived (HKDF-SHA256) from the ID-token signing key, which every
// instance already shares (JWT_PRIVATE_KEY or DATA_DIR/jwt-ed25519.pem). A copy of the database
// alone reveals no secret. Replacing the signing key makes enrolled users enrol again
// (docs/security.md).
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string | undefined;
}

export function createSecretBox(keys: SigningKeys): SecretBox {
  const material = keys.privateKey.export({ format: "der", type: "pkcs8" });
  const key = Buffer.from(hkdfSync("sha256", material, "gradecast", "mfa secrets v1", 32));
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return ["v1", iv, cipher.getAuthTag(), body]
        .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
        .join(".");
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split(".");
      if (version !== "v1" || !iv || !tag || body === undefined) return undefined;
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
        decipher.setAuthTag(Buffer.from(tag, "base64url"));
        return Buffer.concat([
          decipher.update(Buffer.from(body, "base64url")),
          decipher.final(),
        ]).toString("utf8");
      } catch {
        return undefined;
      }
    },
  };
}
