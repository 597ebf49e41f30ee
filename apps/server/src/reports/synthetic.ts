import { type Kysely, sql } from "kysely";
import type { DB } from "../db/schema.ts";

// Synthetic reports for benchmarks: one author and n reports written by generate_series in
// statements of 10,000 rows (each well under the server's statement timeout), so 100,000 rows
// take seconds. Returns the seconds it took.
/** 100,000 reports in one statement: names from 60 first and 50 last names, varied fields. */
export async function seedSyntheticReports(db: Kysely<DB>, n: number): Promise<number> {
  const t0 = performance.now();
  const author = await db
    .insertInto("users")
    .values({
      name: "Seed Teacher",
      email: "seed.teacher@bench.test",
      password_hash: "not-a-real-hash",
      role: "teacher",
      pending_role: null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const first =
    "Ann,Bob,Carla,Dev,Emma,Farid,Grace,Hugo,Ines,Jamal,Kira,Liam,Mia,Noah,Olga,Pavel,Quinn,Rosa,Sami,Tara,Uma,Victor,Wen,Xavier,Yara,Zoe,Aiko,Bruno,Chloe,Diego,Elif,Femi,Gita,Hana,Ivan,Jana,Kofi,Lena,Marco,Nadia,Omar,Priya,Rafael,Sofia,Tomas,Ugo,Vera,Wale,Yusuf,Zara,Amir,Bea,Cyril,Dana,Eero,Fatou,Gus,Hiro,Isla,Jonas".split(
      ",",
    );
  const last =
    "Smith,Garcia,Nguyen,Kowalski,Okafor,Rossi,Schmidt,Dubois,Tanaka,Silva,Jensen,Novak,Ivanova,Haddad,Kim,Patel,Murphy,Andersen,Moreau,Costa,Fischer,Yilmaz,Mensah,Horvat,Larsen,Ortiz,Bauer,Sato,Petrov,Lopez,Nielsen,Romano,Weber,Chen,Ali,Khan,Brown,Walker,Young,King,Wright,Scott,Green,Baker,Adams,Nelson,Hill,Campbell,Mitchell,Roberts".split(
      ",",
    );
  const courses = [
    "Mathematics",
    "Physics",
    "Chemistry",
    "Biology",
    "History",
    "Geography",
    "Literature",
    "Computer Science",
  ];
  const chunk = 10_000;
  for (let from = 1; from <= n; from += chunk) {
    const to = Math.min(n, from + chunk - 1);
    await sql`
    insert into student_reports (author_id, student_name, course, marks, attendance, assignments,
      behavior, feedback, created_at, updated_at)
    select ${author.id}::uuid,
      (${first}::text[])[1 + i % ${first.length}] || ' ' || (${last}::text[])[1 + (i / ${first.length}) % ${last.length}],
      (${courses}::text[])[1 + i % ${courses.length}],
      (i * 37) % 101, (i * 53) % 101, i % 7,
      (array['Excellent', 'Good', 'Average', 'Needs Improvement', 'Poor'])[1 + i % 5],
      'Feedback for report ' || i || ': steady work, keep practising.',
      timestamptz '2025-09-01 08:00:00+00' + i * interval '97 seconds',
      timestamptz '2025-09-01 08:00:00+00' + i * interval '97 seconds'
    from generate_series(${from}::int, ${to}::int) as i`.execute(db);
  }
  await sql`analyze student_reports`.execute(db);
  return (performance.now() - t0) / 1000;
}
