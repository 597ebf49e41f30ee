import { type Kysely, sql } from "kysely";
import { addReportNameSearchColumn } from "./shared-steps.ts";

// Issue 33: a search of people ignores accents as well as case, so "Luis" finds "Luís Santos".
// `fold_for_search(text)` strips the accents of the Latin letters Portuguese, Spanish, French and German
// names carry, then lowers the case. It is a plain immutable SQL function (translate + lower),
// not the `unaccent` extension, which is not immutable (so cannot back an index or a generated
// column) and is not loaded in PGlite. Accents go before lower(): under the C collation lower()
// changes only ASCII letters. The searches compare fold_for_search(column) with fold_for_search(words typed), and keep
// their trigram indexes: the report list's stored column (migration 0005) now holds the folded
// name, and the admin's user search index is rebuilt on the folded expression.
const accented = "ÁÀÂÃÄÅáàâãäåÉÈÊËéèêëÍÌÎÏíìîïÓÒÔÕÖóòôõöÚÙÛÜúùûüÇçÑñÝýÿ";
const plain = [...accented].map((c) => c.normalize("NFD").replace(/\p{M}/gu, "")).join("");

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function fold_for_search(t text) returns text
    language sql immutable strict parallel safe
    as ${sql.raw(`$$ select lower(translate(t, '${accented}', '${plain}')) $$`)}`.execute(db);
  await sql`alter table student_reports drop column student_name_lower`.execute(db);
  await addReportNameSearchColumn(db, {
    column: "student_name_folded",
    expression: "fold_for_search(student_name)",
    index: "student_reports_name_folded_trgm",
  });
  await sql`drop index users_search_idx`.execute(db);
  await sql`
    create index users_search_idx on users
    using gin (fold_for_search(name || ' ' || email) gin_trgm_ops)`.execute(db);
  await sql`analyze student_reports`.execute(db);
  await sql`analyze users`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index users_search_idx`.execute(db);
  await sql`
    create index users_search_idx on users
    using gin (lower(name || ' ' || email) gin_trgm_ops)`.execute(db);
  await sql`alter table student_reports drop column student_name_folded`.execute(db);
  await sql`
    alter table student_reports
    add column student_name_lower text generated always as (lower(student_name)) stored`.execute(
    db,
  );
  await sql`
    create index student_reports_name_lower_trgm
    on student_reports using gin (student_name_lower gin_trgm_ops)`.execute(db);
  await sql`drop function fold_for_search(text)`.execute(db);
}
