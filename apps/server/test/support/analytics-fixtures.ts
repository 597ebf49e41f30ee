import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { createEmbedSigner } from "../../src/analytics/embed-token.ts";
import type { DB } from "../../src/db/schema.ts";
import type { TestApp } from "./helpers.ts";

// What the analytics tests write directly: people (no sign-in needed, the report is reached
// with an embed token), their sessions, and the embed tokens themselves.

/** A user row: verified and enabled unless told otherwise. */
export async function addUser(
  db: Kysely<DB>,
  name: string,
  role: "student" | "teacher" | "admin",
  opts: { verified?: boolean; disabled?: boolean } = {},
): Promise<string> {
  const row = await db
    .insertInto("users")
    .values({
      name,
      email: `${randomUUID()}@example.test`,
      password_hash: "not-a-real-hash",
      role,
      pending_role: null,
      email_verified: opts.verified ?? true,
      disabled: opts.disabled ?? false,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A live session (refresh-token family) of a user, as a sign-in makes: embed tokens name one. */
export async function sessionOf(db: Kysely<DB>, userId: string): Promise<string> {
  const familyId = randomUUID();
  await db
    .insertInto("sessions")
    .values({
      family_id: familyId,
      user_id: userId,
      token_hash: randomUUID(),
      expires_at: new Date(Date.now() + 86_400_000),
    })
    .execute();
  return familyId;
}

/** Signs embed tokens with the app's own key (same DATA_DIR), each for a new session. */
export async function embedSigner(t: TestApp) {
  const signer = await createEmbedSigner(t.config);
  return async (userId: string, scope: "staff" | "student", now = new Date()): Promise<string> =>
    (await signer.sign({ userId, sessionId: await sessionOf(t.database.db, userId), scope }, now))
      .token;
}

/** A stored prediction of a score, its interval 2 either side; made now unless `at` is given. */
export async function addPrediction(
  db: Kysely<DB>,
  userId: string,
  score: number,
  at?: string,
  inputs: object = {},
) {
  await db
    .insertInto("predictions")
    .values({
      user_id: userId,
      inputs: JSON.stringify(inputs),
      score,
      raw_score: score,
      interval_low: Math.max(0, score - 2),
      interval_high: Math.min(20, score + 2),
      extrapolation: false,
      model_version: "test",
      ...(at ? { created_at: at as never } : {}),
    })
    .execute();
}
