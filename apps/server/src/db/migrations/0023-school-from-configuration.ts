import { type Kysely, sql } from "kysely";

// Issue 28: the school is the deployment's (MODEL_SCHOOL), never asked. A questionnaire saved
// where it is not set has no school (null); rows saved before keep the school they were given.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table students alter column school drop not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // Rows without a school cannot go back under "not null": they take the data set's larger school.
  await sql`update students set school = 'GP' where school is null`.execute(db);
  await sql`alter table students alter column school set not null`.execute(db);
}
