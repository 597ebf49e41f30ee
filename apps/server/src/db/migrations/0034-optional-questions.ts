import { type Kysely, sql } from "kysely";

// Issue 31, "Only what is needed": a question the deployment marks optional (OPTIONAL_QUESTIONS)
// may be left out ("Prefer not to say"), kept as null in the saved questionnaire. Every question
// a deployment may mark optional (the contract's `optionalCapableKeys`) loses its not-null; its
// check of the allowed values stays (a check passes on null). Which ones a student may really
// leave out is the server's check, per deployment.
const columns = [
  "health",
  "romantic",
  "famrel",
  "pstatus",
  "mjob",
  "fjob",
  "sex",
  "age",
  "address",
  "famsize",
  "medu",
  "fedu",
  "reason",
  "guardian",
  "traveltime",
  "famsup",
  "paid",
  "nursery",
  "internet",
  "activities",
  "freetime",
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const c of columns) {
    await sql`alter table students alter column ${sql.ref(c)} drop not null`.execute(db);
  }
}
