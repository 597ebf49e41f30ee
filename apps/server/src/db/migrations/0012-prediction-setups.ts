import { type Kysely, sql } from "kysely";

// Issue 19: the model answers early in the term and in two parts. A questionnaire may leave G1
// and G2 "not known yet" (null) and names its subject; a stored prediction keeps which setup
// answered, the score if the student sits and the risk of not sitting. Older rows stay as they
// were: their new columns are null (subject not asked, parts not computed then).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table students alter column g1 drop not null`.execute(db);
  await sql`alter table students alter column g2 drop not null`.execute(db);
  await sql`
    alter table students
      add column subject text check (subject in ('mat', 'por')),
      add constraint students_g2_after_g1 check (g2 is null or g1 is not null)`.execute(db);
  await sql`
    alter table predictions
      add column model_setup text check (model_setup in ('A', 'B', 'C')),
      add column score_if_sits double precision check (score_if_sits between 0 and 20),
      add column no_final_score_risk double precision
        check (no_final_score_risk between 0 and 1)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table predictions
      drop column if exists no_final_score_risk,
      drop column if exists score_if_sits,
      drop column if exists model_setup`.execute(db);
  await sql`
    alter table students
      drop constraint if exists students_g2_after_g1,
      drop column if exists subject`.execute(db);
}
