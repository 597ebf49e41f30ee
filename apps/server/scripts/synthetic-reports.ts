import { type Kysely, sql } from "kysely";
import type { DB } from "../src/db/schema.ts";

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

/**
 * Classes over the synthetic reports, for the search benchmark's scoped readers: `classes`
 * classes of one teacher each, every report filed through one of them in turn (so a class
 * teacher sees 1/classes of the reports), and the seed teacher, who wrote them all, also
 * teaching the first (a report both written by and filed through the reader's class).
 * Returns the emails of the seed teacher and of the first class's other teacher.
 */
export async function seedSyntheticClasses(
  db: Kysely<DB>,
  classes: number,
): Promise<{ authorEmail: string; classTeacherEmail: string }> {
  const authorEmail = "seed.teacher@bench.test";
  const classTeacherEmail = "class.teacher.1@bench.test";
  await sql`
    with c as (
      insert into classes (name, subject, year)
      select 'Class ' || k, 'mat', '2025/26' from generate_series(1, ${classes}::int) as k
      returning id, name
    ), t as (
      insert into users (name, email, password_hash, role, email_verified)
      select 'Class Teacher ' || k, 'class.teacher.' || k || '@bench.test', 'not-a-real-hash',
        'teacher', true
      from generate_series(1, ${classes}::int) as k
      returning id, email
    )
    insert into class_teachers (class_id, teacher_id)
    select c.id, t.id from c join t on substr(c.name, 7) = split_part(substr(t.email, 15), '@', 1)
    union all
    select c.id, u.id from c, users u where c.name = 'Class 1' and u.email = ${authorEmail}`.execute(
    db,
  );
  // The seed teacher reads as a verified teacher does (an unverified account reads no report).
  await sql`update users set email_verified = true where email = ${authorEmail}`.execute(db);
  // Report i (created at the seed's start + i * 97 s) goes to class i mod `classes`; in
  // statements of 10,000 rows, as the reports were written.
  const classIds = (
    await db.selectFrom("classes").select(["id", "name"]).where("name", "like", "Class %").execute()
  )
    .sort((a, b) => Number(a.name.slice(6)) - Number(b.name.slice(6)))
    .map((c) => c.id);
  const { n } = await db
    .selectFrom("student_reports")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .executeTakeFirstOrThrow();
  for (let from = 0; from <= Number(n); from += 10_000) {
    await sql`
      update student_reports set class_id = (${classIds}::uuid[])[1 + (extract(epoch from
        created_at - timestamptz '2025-09-01 08:00:00+00')::bigint / 97) % ${classes}::int]
      where created_at >= timestamptz '2025-09-01 08:00:00+00' + ${from}::int * interval '97 seconds'
        and created_at < timestamptz '2025-09-01 08:00:00+00' + ${from + 10_000}::int * interval '97 seconds'`.execute(
      db,
    );
  }
  await sql`analyze`.execute(db);
  return { authorEmail, classTeacherEmail };
}
