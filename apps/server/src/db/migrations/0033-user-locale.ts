import { type Kysely, sql } from "kysely";

// Issue 33: the language a person chose on their profile. Null (everyone before this migration)
// follows the browser's Accept-Language, then the deployment's DEFAULT_LOCALE.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table users add column locale text
    constraint users_locale_check check (locale in ('en', 'pt-PT'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users drop column locale`.execute(db);
}
