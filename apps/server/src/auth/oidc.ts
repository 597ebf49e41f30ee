import { randomUUID } from "node:crypto";
import type { OidcRefusal } from "@gradecast/contract/oidc";
import * as client from "openid-client";
import { acceptTeacherInvitation } from "../admin/teacher-invitations.ts";
import { notifyAdminsOfTeacherRequest } from "../admin/teacher-requests.ts";
import { audit, auditOwn } from "../audit/audit.ts";
import { enrolInvitedStudent } from "../classes/invitations.ts";
import type { OidcConfig } from "../config.ts";
import { cancelDeletionOnSignIn } from "../db/account-deletions.ts";
import type { UserRow } from "../db/schema.ts";
import * as users from "../db/users.ts";
import type { AuthContext, Origin } from "./context.ts";
import { mfaEnabled, signChallenge } from "./mfa.ts";
import { hashPassword } from "./passwords.ts";
import { type SignedIn, startSession } from "./service.ts";
import { randomToken, sha256 } from "./tokens.ts";

// Sign-in with the school's identity provider (OpenID Connect, issue 34), through openid-client:
// authorization code with PKCE (S256), `state` and `nonce`; the ID token's signature (the
// provider's JWKS), issuer, audience, expiry and nonce are checked by openid-client. What this
// file decides: which account an answer is (user_identities by issuer and subject; a first
// sign-in links to an existing account only for a verified address of an allowed domain, else
// creates a student), the deployment's rules (domains, Google's `hd`, Microsoft's `tid`, the
// teacher group, MFA), and that a refusal creates nothing.

/** A sign-in started and not finished within this many minutes is forgotten. */
export const loginMinutes = 10;
const scope = "openid email profile";

export class OidcRefused extends Error {
  constructor(
    readonly code: OidcRefusal,
    readonly detail?: string,
  ) {
    super(code);
  }
}

/** The provider's configuration, discovered once (and again after a failure). */
export interface OidcClient {
  settings: OidcConfig;
  configuration(): Promise<client.Configuration>;
  redirectUri: string;
  method: string;
}

const loopback = new Set(["localhost", "127.0.0.1", "[::1]"]);

export function createOidcClient(settings: OidcConfig, publicUrl: string): OidcClient {
  let found: Promise<client.Configuration> | undefined;
  const issuer = new URL(settings.issuer);
  return {
    settings,
    redirectUri: `${publicUrl}/api/auth/oidc/callback`,
    method: `oidc:${settings.name}`,
    configuration() {
      if (!found) {
        found = client
          .discovery(
            issuer,
            settings.clientId,
            settings.clientSecret,
            undefined,
            // Plain HTTP only to a provider on this machine (development and the tests).
            issuer.protocol === "http:" && loopback.has(issuer.hostname)
              ? { execute: [client.allowInsecureRequests] }
              : undefined,
          )
          .then((configuration) => {
            // The ID token's signature is checked against the provider's JWKS, not only trusted
            // for having come over TLS (which openid-client would otherwise allow).
            client.enableNonRepudiationChecks(configuration);
            return configuration;
          })
          .catch((error) => {
            found = undefined;
            throw error;
          });
      }
      return found;
    },
  };
}

/** GET /api/auth/oidc/start: where to send the browser, and the cookie that binds it. */
export async function startOidc(
  ctx: AuthContext,
  oidc: OidcClient,
): Promise<{ url: string; browser: string }> {
  const { services } = ctx;
  let configuration: client.Configuration;
  try {
    configuration = await oidc.configuration();
  } catch {
    throw new OidcRefused("unavailable");
  }
  const state = client.randomState();
  const nonce = client.randomNonce();
  const verifier = client.randomPKCECodeVerifier();
  const browser = randomToken();
  const now = services.now();
  await services.db.deleteFrom("oidc_logins").where("expires_at", "<", now).execute();
  await services.db
    .insertInto("oidc_logins")
    .values({
      state_hash: sha256(state),
      browser_hash: sha256(browser),
      nonce,
      code_verifier: verifier,
      created_at: now as never,
      expires_at: new Date(now.getTime() + loginMinutes * 60_000),
    })
    .execute();
  const url = client.buildAuthorizationUrl(configuration, {
    redirect_uri: oidc.redirectUri,
    scope,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
    nonce,
    ...(oidc.settings.googleHd ? { hd: oidc.settings.googleHd } : {}),
  });
  return { url: url.href, browser };
}

export type OidcOutcome =
  | { kind: "signedIn"; session: SignedIn }
  | { kind: "mfa"; challenge: string };

interface Claims {
  iss: string;
  sub: string;
  email?: unknown;
  email_verified?: unknown;
  name?: unknown;
  given_name?: unknown;
  family_name?: unknown;
  hd?: unknown;
  tid?: unknown;
  amr?: unknown;
  [claim: string]: unknown;
}

/** Why openid-client refused the answer, as one of the login page's codes. */
function refusalOf(error: unknown): OidcRefusal {
  const parts: string[] = [];
  let providerAnswer = false;
  for (let e: unknown = error, depth = 0; e && depth < 6; depth++) {
    const { name, code, message, cause } = e as {
      name?: string;
      code?: string;
      message?: string;
      cause?: unknown;
    };
    if (name === "ResponseBodyError" || name === "AuthorizationResponseError") {
      providerAnswer = true;
    }
    parts.push(String(code ?? ""), String(message ?? ""));
    const claim = (cause as { claim?: unknown } | undefined)?.claim;
    if (typeof claim === "string") parts.push(`claim:${claim}`);
    e = cause;
  }
  if (providerAnswer) return "provider_refused";
  const text = parts.join(" ");
  if (/claim:aud|"aud"/.test(text)) return "token_audience";
  if (/claim:nonce|"nonce"/.test(text)) return "token_nonce";
  if (/TIMESTAMP_CHECK|claim:exp|"exp"/.test(text)) return "token_expired";
  if (/KEY_SELECTION|signature/i.test(text)) return "token_signature";
  return "token_invalid";
}

const domainOf = (email: string) => email.slice(email.lastIndexOf("@") + 1);

/** The deployment's rules on who may come in, in the order a person would fix them. */
function checkClaims(settings: OidcConfig, claims: Claims): string {
  if (settings.allowedTenants.length > 0) {
    if (typeof claims.tid !== "string" || !settings.allowedTenants.includes(claims.tid)) {
      throw new OidcRefused("tenant_not_allowed", String(claims.tid ?? ""));
    }
  }
  if (settings.googleHd) {
    if (typeof claims.hd !== "string" || claims.hd.toLowerCase() !== settings.googleHd) {
      throw new OidcRefused("domain_not_allowed", `hd=${String(claims.hd ?? "")}`);
    }
  }
  const email = typeof claims.email === "string" ? claims.email.trim().toLowerCase() : "";
  if (!email.includes("@") || email.length > 254) throw new OidcRefused("email_missing");
  if (claims.email_verified !== true && claims.email_verified !== "true") {
    throw new OidcRefused("email_unverified", domainOf(email));
  }
  if (settings.allowedDomains.length > 0 && !settings.allowedDomains.includes(domainOf(email))) {
    throw new OidcRefused("domain_not_allowed", domainOf(email));
  }
  return email;
}

function nameOf(claims: Claims, email: string): string {
  const joined = [claims.given_name, claims.family_name]
    .filter((part): part is string => typeof part === "string" && part.trim() !== "")
    .join(" ");
  const name = typeof claims.name === "string" && claims.name.trim() ? claims.name : joined;
  return (name.trim() || email.slice(0, email.indexOf("@"))).slice(0, 100);
}

function inTeacherGroup(settings: OidcConfig, claims: Claims): boolean {
  if (!settings.groupsClaim || settings.teacherGroups.length === 0) return false;
  const value = claims[settings.groupsClaim];
  const groups = Array.isArray(value) ? value : typeof value === "string" ? [value] : [];
  return groups.some(
    (group) => typeof group === "string" && settings.teacherGroups.includes(group),
  );
}

/**
 * GET /api/auth/oidc/callback: the sign-in started by `state` in the browser holding `browser`,
 * finished; a refusal throws OidcRefused (audited) and leaves nothing behind.
 */
export async function finishOidc(
  ctx: AuthContext,
  oidc: OidcClient,
  origin: Origin,
  input: { currentUrl: URL; state: string | undefined; browser: string | undefined },
): Promise<OidcOutcome> {
  const { services } = ctx;
  const refuse = async (code: OidcRefusal, detail?: string, user?: UserRow) => {
    await audit(services.db, {
      actorId: user?.id ?? null,
      actorEmail: user?.email ?? null,
      action: "auth.oidc_refused",
      target: user?.id ?? null,
      details: { reason: code, provider: oidc.settings.name, ...(detail ? { detail } : {}) },
      ip: origin.ip,
    });
    return new OidcRefused(code);
  };
  // The sign-in this browser started, taken once: a second callback with the same state finds
  // nothing, and so does one from another browser (login CSRF).
  const now = services.now();
  const started = input.state
    ? await services.db
        .deleteFrom("oidc_logins")
        .where("state_hash", "=", sha256(input.state))
        .returningAll()
        .executeTakeFirst()
    : undefined;
  if (
    !started ||
    new Date(started.expires_at).getTime() <= now.getTime() ||
    !input.browser ||
    sha256(input.browser) !== started.browser_hash
  ) {
    throw await refuse("state_mismatch");
  }
  let configuration: client.Configuration;
  try {
    configuration = await oidc.configuration();
  } catch {
    throw await refuse("unavailable");
  }
  let claims: Claims;
  let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
  try {
    tokens = await client.authorizationCodeGrant(configuration, input.currentUrl, {
      pkceCodeVerifier: started.code_verifier,
      expectedState: input.state,
      expectedNonce: started.nonce,
      idTokenExpected: true,
    });
    const found = tokens.claims();
    if (!found) throw new Error("no ID token");
    claims = found as unknown as Claims;
  } catch (error) {
    const code = refusalOf(error);
    throw await refuse(code, error instanceof Error ? error.message.slice(0, 200) : undefined);
  }
  let email: string;
  try {
    email = checkClaims(oidc.settings, claims);
  } catch (error) {
    if (error instanceof OidcRefused) throw await refuse(error.code, error.detail);
    throw error;
  }

  const known = await services.db
    .selectFrom("user_identities")
    .select(["id", "user_id"])
    .where("issuer", "=", claims.iss)
    .where("subject", "=", claims.sub)
    .executeTakeFirst();
  let row: UserRow | undefined;
  if (known) {
    row = await users.findUserById(services.db, known.user_id);
    if (!row) throw await refuse("token_invalid");
    if (row.disabled) throw await refuse("account_disabled", undefined, row);
    await services.db
      .updateTable("user_identities")
      .set({ email, last_sign_in_at: now as never })
      .where("id", "=", known.id)
      .execute();
  } else {
    row = await firstSignIn(ctx, oidc, origin, claims, email, refuse);
  }

  const amr = Array.isArray(claims.amr) ? claims.amr : [];
  const providerMfa = oidc.settings.trustAmrMfa && amr.includes("mfa");
  if (mfaEnabled(row) && !providerMfa) {
    return { kind: "mfa", challenge: await signChallenge(ctx.keys, row.id, now, oidc.method) };
  }
  const session = await startSession(ctx, row, randomUUID(), now, origin, {
    method: oidc.method,
    providerMfa,
  });
  await auditOwn(services.db, row, "auth.login", origin.ip, {
    via: oidc.method,
    ...(providerMfa ? { mfa: "provider" } : {}),
  });
  // As a password sign-in does (issue 31): signing in during a deletion's grace period cancels it.
  await cancelDeletionOnSignIn(services.db, row, origin.ip);
  return { kind: "signedIn", session };
}

/** A subject this installation has not seen: link to a verified account, or a new student. */
async function firstSignIn(
  ctx: AuthContext,
  oidc: OidcClient,
  origin: Origin,
  claims: Claims,
  email: string,
  refuse: (code: OidcRefusal, detail?: string, user?: UserRow) => Promise<OidcRefused>,
): Promise<UserRow> {
  const { services } = ctx;
  const existing = await users.findUserByEmail(services.db, email);
  if (existing) {
    // Linking hands the account to whoever holds the provider's identity: only when the
    // deployment vouches for the domain (OIDC_ALLOWED_DOMAINS) and the account's own address
    // was proven here too (an unverified account may be a stranger's squat on the address).
    const linkable =
      oidc.settings.allowedDomains.includes(domainOf(email)) && existing.email_verified;
    if (!linkable) throw await refuse("email_taken", domainOf(email), existing);
    if (existing.disabled) throw await refuse("account_disabled", undefined, existing);
    const linked = await services.db
      .insertInto("user_identities")
      .values({ user_id: existing.id, issuer: claims.iss, subject: claims.sub, email })
      .onConflict((oc) => oc.columns(["issuer", "subject"]).doNothing())
      .returning("id")
      .executeTakeFirst();
    if (!linked) throw await refuse("state_mismatch");
    await auditOwn(services.db, existing, "auth.oidc_linked", origin.ip, {
      provider: oidc.settings.name,
    });
    return existing;
  }
  // A new account: a student, or one asking to teach when the provider puts the person in a
  // teacher group (OIDC_TEACHER_GROUPS): a teacher at once only under TEACHER_SIGNUP=open,
  // otherwise waiting for an admin's approval like any teacher sign-up.
  const teacher = inTeacherGroup(oidc.settings, claims);
  const open = services.config.teacherSignup === "open";
  // No password anyone knows: a random one, hashed (a reset link can set a real one, unless the
  // deployment switched passwords off for the role).
  const passwordHash = await hashPassword(randomToken());
  const created = await services.db.transaction().execute(async (tx) => {
    const row = await users.insertUser(tx, {
      name: nameOf(claims, email),
      email,
      password_hash: passwordHash,
      role: teacher && open ? "teacher" : "student",
      pending_role: teacher && !open ? "teacher" : null,
      email_verified: true,
    });
    if (!row) return undefined;
    await tx
      .insertInto("user_identities")
      .values({ user_id: row.id, issuer: claims.iss, subject: claims.sub, email })
      .execute();
    await audit(tx, {
      actorId: row.id,
      actorEmail: row.email,
      action: "auth.register",
      target: row.id,
      details: {
        role: row.role,
        via: oidc.method,
        ...(row.pending_role ? { pendingRole: row.pending_role } : {}),
      },
      ip: origin.ip,
    });
    return row;
  });
  // Another sign-in made the address's account a moment ago.
  if (!created) throw await refuse("email_taken", domainOf(email));
  services.database.usersChanged();
  const row = await acceptTeacherInvitation(services, created, origin.ip);
  await enrolInvitedStudent(services, row, origin.ip);
  await notifyAdminsOfTeacherRequest(services, row);
  return row;
}
