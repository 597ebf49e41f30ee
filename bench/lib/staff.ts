// A staff account for a bench: made with the admin:create code before the server starts
// (verified, no approval wait), then signed in through the API as a browser would.
import { randomBytes } from "node:crypto";
import { Secret, TOTP } from "otpauth";
import type { Database } from "../../apps/server/src/db/database.ts";
import { createOrPromoteAdmin } from "../../apps/server/src/users/admin.ts";
import { benchPassword } from "./accounts.ts";

/** An admin in the database the server will open: sees every report, as teachers once did. */
export async function makeAdmin(db: Database["db"]): Promise<string> {
  const email = `bench.${randomBytes(4).toString("hex")}@bench.test`;
  await createOrPromoteAdmin(db, { email, name: "Bench Admin", password: benchPassword });
  return email;
}

/** Signs in; an admin turns MFA on first, as the Settings page makes them (issue 18). */
export async function signIn(url: string, email: string): Promise<Record<string, string>> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: benchPassword }),
  });
  if (res.status !== 200) throw new Error(`login: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { token: string; user: { role: string } };
  const auth = { authorization: `Bearer ${body.token}` };
  if (body.user.role !== "admin") return auth;
  const post = (path: string, json?: unknown) =>
    fetch(`${url}${path}`, {
      method: "POST",
      headers: { ...auth, ...(json ? { "content-type": "application/json" } : {}) },
      ...(json ? { body: JSON.stringify(json) } : {}),
    });
  const { secret } = (await (await post("/api/me/mfa/totp")).json()) as { secret: string };
  const code = TOTP.generate({ secret: Secret.fromBase32(secret) });
  const confirmed = await post("/api/me/mfa/totp/confirm", { code });
  if (confirmed.status !== 200) throw new Error(`MFA: ${confirmed.status}`);
  return auth;
}
