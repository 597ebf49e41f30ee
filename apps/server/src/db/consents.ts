import { type Kysely, type SelectQueryBuilder, sql } from "kysely";
import type { DB, GuardianConsentsTable } from "./schema.ts";

// Guardian consents and prediction contests (migration 0028): several features read them (the
// consent routes, the questionnaire and prediction gate, the class risk list), so their
// repository is shared here.
type Db = Kysely<DB>;

export type ConsentRow = {
  id: string;
  studentId: string;
  guardianEmail: string;
  textVersion: string | null;
  createdAt: Date;
  expiresAt: Date;
  consentedAt: Date | null;
  withdrawnAt: Date | null;
  withdrawnBy: GuardianConsentsTable["withdrawn_by"];
};

const columns = [
  "id",
  "student_id as studentId",
  "guardian_email as guardianEmail",
  "text_version as textVersion",
  "created_at as createdAt",
  "expires_at as expiresAt",
  "consented_at as consentedAt",
  "withdrawn_at as withdrawnAt",
  "withdrawn_by as withdrawnBy",
] as const;

const dateOf = (v: Date | string | null): Date | null => (v === null ? null : new Date(v));
function toRow(r: Record<string, unknown>): ConsentRow {
  return {
    id: r.id as string,
    studentId: r.studentId as string,
    guardianEmail: r.guardianEmail as string,
    textVersion: r.textVersion as string | null,
    createdAt: new Date(r.createdAt as Date),
    expiresAt: new Date(r.expiresAt as Date),
    consentedAt: dateOf(r.consentedAt as Date | null),
    withdrawnAt: dateOf(r.withdrawnAt as Date | null),
    withdrawnBy: r.withdrawnBy as ConsentRow["withdrawnBy"],
  };
}

/** The student's newest request (the one that counts). */
export async function newestConsent(db: Db, studentId: string): Promise<ConsentRow | undefined> {
  const row = await db
    .selectFrom("guardian_consents")
    .select(columns)
    .where("student_id", "=", studentId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? toRow(row) : undefined;
}

/** The consent a link's token names (by its hash), with the student's name and language. */
export async function consentByTokenHash(
  db: Db,
  column: "token_hash" | "withdraw_token_hash",
  hash: string,
): Promise<
  (ConsentRow & { studentName: string; studentLocale: "en" | "pt-PT" | null }) | undefined
> {
  const row = await db
    .selectFrom("guardian_consents as g")
    .innerJoin("users as u", "u.id", "g.student_id")
    .select(columns.map((c) => `g.${c}` as `g.${(typeof columns)[number]}`))
    .select(["u.name as studentName", "u.locale as studentLocale"])
    .where(`g.${column}`, "=", hash)
    .executeTakeFirst();
  return row
    ? { ...toRow(row), studentName: row.studentName, studentLocale: row.studentLocale }
    : undefined;
}

export async function insertConsentRequest(
  db: Db,
  row: { studentId: string; guardianEmail: string; tokenHash: string; now: Date; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto("guardian_consents")
    .values({
      student_id: row.studentId,
      guardian_email: row.guardianEmail,
      token_hash: row.tokenHash,
      created_at: row.now,
      expires_at: row.expiresAt,
    })
    .execute();
}

/** Records the consent once, on a live link of the student's newest request. */
export async function recordConsent(
  db: Db,
  id: string,
  p: { textVersion: string; withdrawTokenHash: string; now: Date },
): Promise<boolean> {
  const rows = await db
    .updateTable("guardian_consents")
    .set({
      consented_at: p.now,
      text_version: p.textVersion,
      withdraw_token_hash: p.withdrawTokenHash,
    })
    .where("id", "=", id)
    .where("consented_at", "is", null)
    .where("withdrawn_at", "is", null)
    .where("expires_at", ">", p.now)
    .returning("id")
    .execute();
  return rows.length === 1;
}

export async function recordWithdrawal(
  db: Db,
  id: string,
  by: "guardian" | "admin",
  now: Date,
): Promise<boolean> {
  const rows = await db
    .updateTable("guardian_consents")
    .set({ withdrawn_at: now, withdrawn_by: by })
    .where("id", "=", id)
    .where("withdrawn_at", "is", null)
    .returning("id")
    .execute();
  return rows.length === 1;
}

/**
 * Students whose guardian withdrew consent (their newest request is withdrawn): their
 * predictions reach no teacher. A subquery, to exclude them where predictions are read.
 */
export function withdrawnStudents(
  db: Db,
): SelectQueryBuilder<DB, "guardian_consents", { student_id: string }> {
  return db
    .selectFrom("guardian_consents as g")
    .select("g.student_id")
    .where("g.withdrawn_at", "is not", null)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("guardian_consents as n")
            .select(sql`1`.as("one"))
            .whereRef("n.student_id", "=", "g.student_id")
            .whereRef("n.created_at", ">", "g.created_at"),
        ),
      ),
    ) as unknown as SelectQueryBuilder<DB, "guardian_consents", { student_id: string }>;
}

// Contests.

export async function saveContest(
  db: Db,
  row: { predictionId: string; studentId: string; reason: string; now: Date },
): Promise<{ createdAt: Date }> {
  const saved = await db
    .insertInto("prediction_contests")
    .values({
      prediction_id: row.predictionId,
      student_id: row.studentId,
      reason: row.reason,
      created_at: row.now,
    })
    .onConflict((oc) =>
      oc.column("prediction_id").doUpdateSet({ reason: row.reason, created_at: row.now }),
    )
    .returning("created_at")
    .executeTakeFirstOrThrow();
  return { createdAt: new Date(saved.created_at) };
}

/** The contest of each of these predictions that has one. */
export async function contestsOf(
  db: Db,
  predictionIds: readonly string[],
): Promise<Map<string, { reason: string; createdAt: Date }>> {
  if (predictionIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("prediction_contests")
    .select(["prediction_id", "reason", "created_at"])
    .where("prediction_id", "in", predictionIds)
    .execute();
  return new Map(
    rows.map((r) => [r.prediction_id, { reason: r.reason, createdAt: new Date(r.created_at) }]),
  );
}
