import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { type DigestChoice, defaultDigest } from "@gradecast/contract/alerts";
import { isId } from "@gradecast/contract/ids";
import type { Kysely } from "kysely";
import type { DB } from "../db/schema.ts";

// The digest preference (no row: weekly) and the unsubscribe link's token: the person's id and an
// HMAC of it under a random key kept with their settings. Nobody can make a token without the
// key; a new key (`rotate`) voids every link sent before.

const newKey = () => randomBytes(32).toString("base64url");

/** The person's settings row, made with the default digest and a fresh key when there is none. */
export async function settingsOf(db: Kysely<DB>, userId: string) {
  await db
    .insertInto("notification_settings")
    .values({ user_id: userId, unsubscribe_key: newKey() })
    .onConflict((oc) => oc.column("user_id").doNothing())
    .execute();
  return db
    .selectFrom("notification_settings")
    .select(["digest", "unsubscribe_key"])
    .where("user_id", "=", userId)
    .executeTakeFirstOrThrow();
}

export async function digestOf(db: Kysely<DB>, userId: string): Promise<DigestChoice> {
  const row = await db
    .selectFrom("notification_settings")
    .select("digest")
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row?.digest ?? defaultDigest;
}

export async function setDigestOf(db: Kysely<DB>, userId: string, digest: DigestChoice) {
  await db
    .insertInto("notification_settings")
    .values({ user_id: userId, digest, unsubscribe_key: newKey() })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ digest, changed_at: new Date() }))
    .execute();
}

const mac = (key: string, userId: string) =>
  createHmac("sha256", key).update(`unsubscribe:${userId}`).digest("base64url");

export function unsubscribeToken(userId: string, key: string): string {
  return `${userId}.${mac(key, userId)}`;
}

/** The person a token names when its signature is theirs; undefined otherwise. */
export async function verifyUnsubscribe(
  db: Kysely<DB>,
  token: string,
): Promise<string | undefined> {
  const [userId = "", signature = ""] = token.split(".");
  if (!isId(userId) || signature === "") return undefined;
  const row = await db
    .selectFrom("notification_settings")
    .select("unsubscribe_key")
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!row) return undefined;
  const expected = Buffer.from(mac(row.unsubscribe_key, userId));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given) ? userId : undefined;
}
