import { type Kysely, sql } from "kysely";

// Issue 34: signing in with the school's identity provider (OpenID Connect).
// `user_identities`: which account an issuer's subject is; the pair is the key an account is
// found by (never the email, which a provider may let a user change). `oidc_logins`: one row
// per sign-in started and not yet finished (state, nonce and PKCE verifier kept on the server
// for ten minutes; the browser holds only a random binding in a cookie, kept here as SHA-256);
// a callback takes its row once. `sessions.sign_in_method`: "password" or "oidc:<name>", shown
// in the session list; `sessions.provider_mfa`: the provider asserted MFA (`amr`) and the
// deployment trusts it (OIDC_TRUST_AMR_MFA), which counts as the admin's MFA for that session.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table user_identities (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users (id) on delete cascade,
      issuer text not null,
      subject text not null,
      email text,
      created_at timestamptz not null default now(),
      last_sign_in_at timestamptz not null default now(),
      unique (issuer, subject)
    )`.execute(db);
  await sql`create index user_identities_user_idx on user_identities (user_id)`.execute(db);
  await sql`
    create table oidc_logins (
      state_hash text primary key,
      browser_hash text not null,
      nonce text not null,
      code_verifier text not null,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null
    )`.execute(db);
  await sql`create index oidc_logins_expires_idx on oidc_logins (expires_at)`.execute(db);
  await sql`
    alter table sessions
      add column sign_in_method text not null default 'password',
      add column provider_mfa boolean not null default false`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sessions drop column sign_in_method, drop column provider_mfa`.execute(db);
  await sql`drop table oidc_logins`.execute(db);
  await sql`drop table user_identities`.execute(db);
}
