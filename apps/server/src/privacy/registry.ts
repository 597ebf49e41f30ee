import {
  columnsOf,
  deletedStudentName,
  formerStaffName,
  type PersonalDataEntry,
  type PersonLink,
  personalData,
  type RetentionCategory,
} from "@gradecast/contract/personal-data";
import { type Kysely, type RawBuilder, sql } from "kysely";
import type { DB } from "../db/schema.ts";

// The export, the purge and retention, driven by the person-data registry
// (packages/contract/src/personal-data.ts): one loop over its entries and links, with the few
// special cases the registry names (the audit log's pseudonyms, reports about a deleted student).

export interface Person {
  id: string;
  email: string;
  name: string;
}

type Db = Kysely<DB>;

const personValue = (link: PersonLink, person: Person) =>
  link.kind === "id" ? person.id : link.kind === "email" ? person.email : person.name;

/** The columns a link's export holds: every column but the secret ones, or the link's own. */
export function exportColumns(entry: PersonalDataEntry, link: PersonLink): string[] {
  if (link.export === "none") return [];
  if (link.export === "all") {
    const secret = new Set(entry.secret ?? []);
    return columnsOf(entry).filter((c) => !secret.has(c));
  }
  return [...link.export];
}

/** The rows of every registry table naming the person, one list per entry and link. */
export async function rowsAbout(
  db: Db,
  person: Person,
): Promise<{ name: string; entry: PersonalDataEntry; rows: Record<string, unknown>[] }[]> {
  const out: { name: string; entry: PersonalDataEntry; rows: Record<string, unknown>[] }[] = [];
  for (const entry of personalData) {
    const exported = entry.links.filter((l) => l.kind !== "name" && l.export !== "none");
    for (const link of exported) {
      const columns = exportColumns(entry, link);
      const result = await sql<Record<string, unknown>>`
        select ${sql.join(columns.map((c) => sql.ref(c)))} from ${sql.table(entry.table)}
        where ${sql.ref(link.column)}::text = ${personValue(link, person)}
        order by 1
        limit 100000`.execute(db);
      const name = exported.length > 1 ? `${entry.table}.${link.column}` : entry.table;
      out.push({ name, entry, rows: result.rows });
    }
  }
  return out;
}

/** The placeholder account that authored rows keep when their author's account is purged. */
export const formerStaffEmail = "former-staff@deleted.invalid";

async function formerStaffId(db: Db): Promise<string> {
  const found = await db
    .selectFrom("users")
    .select("id")
    .where("email", "=", formerStaffEmail)
    .executeTakeFirst();
  if (found) return found.id;
  const row = await db
    .insertInto("users")
    .values({
      name: formerStaffName,
      email: formerStaffEmail,
      // No password hashes to this: nobody signs in as it (and it is disabled).
      password_hash: "!",
      role: "teacher",
      pending_role: null,
      disabled: true,
      email_verified: true,
    })
    .onConflict((oc) => oc.column("email").doNothing())
    .returning("id")
    .executeTakeFirst();
  return row?.id ?? formerStaffId(db);
}

/** Replaces the person's id, email and name inside a JSON value (the audit log's details). */
function scrub(value: unknown, person: Person, pseudonym: string): unknown {
  if (typeof value === "string") {
    if (value === person.name) return pseudonym;
    return value.replaceAll(person.id, pseudonym).replaceAll(person.email, pseudonym);
  }
  if (Array.isArray(value)) return value.map((v) => scrub(v, person, pseudonym));
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, scrub(v, person, pseudonym)]),
    );
  }
  return value;
}

/** The audit log keeps its entries; the person in them becomes their pseudonym. */
async function pseudonymiseAudit(db: Db, person: Person, pseudonym: string): Promise<number> {
  const like = (text: string) =>
    `%${text.replaceAll("\\", "\\\\").replaceAll("%", "\\%").replaceAll("_", "\\_")}%`;
  const rows = await sql<{ id: string; details: unknown }>`
    select id, details from audit_log
    where actor_id = ${person.id}::uuid or actor_email = ${person.email} or target = ${person.id}
      or details::text like ${like(person.id)} or details::text like ${like(person.email)}
      or details::text like ${like(JSON.stringify(person.name).slice(1, -1))}`.execute(db);
  for (const row of rows.rows) {
    const details = typeof row.details === "string" ? JSON.parse(row.details) : row.details;
    await sql`
      update audit_log set
        actor_id = case when actor_id = ${person.id}::uuid then null else actor_id end,
        actor_email = case when actor_email = ${person.email} or actor_id = ${person.id}::uuid
          then ${pseudonym} else actor_email end,
        target = case when target = ${person.id} then ${pseudonym} else target end,
        details = ${JSON.stringify(scrub(details, person, pseudonym))}::jsonb
      where id = ${row.id}`.execute(db);
  }
  return rows.rows.length;
}

/** Reports naming a deleted student: deleted, or kept with the student's name removed. */
async function eraseStudentReports(
  db: Db,
  person: Person,
  rule: "delete" | "anonymise",
): Promise<void> {
  if (rule === "delete") {
    await db.deleteFrom("student_reports").where("student_id", "=", person.id).execute();
    return;
  }
  await sql`
    update student_reports set
      student_id = null,
      student_name = ${deletedStudentName},
      feedback = replace(feedback, ${person.name}, ${deletedStudentName})
    where student_id = ${person.id}::uuid`.execute(db);
}

/**
 * Removes the person everywhere the registry names them, entry by entry (the account last), in
 * the caller's transaction. Returns the rows touched per table.
 */
export async function purgePerson(
  db: Db,
  person: Person,
  pseudonym: string,
): Promise<Record<string, number>> {
  const touched: Record<string, number> = {};
  const settings = await db
    .selectFrom("privacy_settings")
    .select("deleted_student_reports")
    .executeTakeFirst();
  const reportsRule = settings?.deleted_student_reports ?? "anonymise";
  for (const entry of personalData) {
    for (const link of entry.links) {
      const value = personValue(link, person);
      const erase = link.erase;
      if (erase === "derived") continue;
      if (erase === "pseudonymise") {
        if (link === entry.links[0]) {
          touched[entry.table] = await pseudonymiseAudit(db, person, pseudonym);
        }
        continue;
      }
      if (erase === "deletedStudentReports") {
        await eraseStudentReports(db, person, reportsRule);
        continue;
      }
      if (erase === "delete") {
        const result = await sql`
          delete from ${sql.table(entry.table)}
          where ${sql.ref(link.column)}::text = ${value}`.execute(db);
        touched[entry.table] = (touched[entry.table] ?? 0) + Number(result.numAffectedRows ?? 0);
        continue;
      }
      const sets = await Promise.all(
        Object.entries(erase.anonymise).map(async ([column, to]) =>
          to === "$formerStaff"
            ? sql`${sql.ref(column)} = ${await formerStaffId(db)}::uuid`
            : sql`${sql.ref(column)} = ${to}`,
        ),
      );
      const result = await sql`
        update ${sql.table(entry.table)} set ${sql.join(sets)}
        where ${sql.ref(link.column)}::text = ${value}`.execute(db);
      touched[entry.table] = (touched[entry.table] ?? 0) + Number(result.numAffectedRows ?? 0);
    }
  }
  return touched;
}

/** The entries a category's retention period applies to (those with an `agedBy` column). */
export function agedEntries(category: RetentionCategory): PersonalDataEntry[] {
  return personalData.filter((e) => e.category === category && e.agedBy);
}

/**
 * A statement over a category's rows older than `days` at `now`: `each` runs on every table of
 * the category, given the table and its "too old" condition, and the results are summed.
 */
function overDue(
  each: (db: Db, table: RawBuilder<unknown>, older: RawBuilder<unknown>) => Promise<number>,
): (db: Db, category: RetentionCategory, days: number, now: Date) => Promise<number> {
  return async (db, category, days, now) => {
    const cutoff = new Date(now.getTime() - days * 86_400_000);
    let total = 0;
    for (const entry of agedEntries(category)) {
      total += await each(
        db,
        sql.table(entry.table),
        sql`${sql.ref(entry.agedBy as string)} < ${cutoff.toISOString()}::timestamptz`,
      );
    }
    return total;
  };
}

/** Rows of the category older than `days` at `now`. */
export const countDue = overDue(async (db, table, older) => {
  const row = await sql<{ n: string | number }>`
    select count(*) as n from ${table} where ${older}`.execute(db);
  return Number(row.rows[0]?.n ?? 0);
});

/** Deletes the category's rows older than `days`; how many. */
export const purgeDue = overDue(async (db, table, older) => {
  const result = await sql`delete from ${table} where ${older}`.execute(db);
  return Number(result.numAffectedRows ?? 0);
});
