import { type Kysely, sql } from "kysely";

// Running totals for the analytics report (issue 7), kept by the database itself so that the
// staff report reads a few hundred rows instead of scanning every report on each view
// (100,000 reports: a scan per aggregate costs tens of milliseconds each; these tables cost
// one).
//
// analytics_report_rollup: one row per (dim, key) with the count and the exact integer sums
// the report needs (x = attendance, y = marks), from which PostgreSQL derives means, the
// least-squares line and the correlation:
//   all ''            every report (the fitted line)
//   marks '1'..'10'   width_bucket of marks in bins of 10 (100 in bin 10)
//   cell 'a:m'        attendance / 5 and marks / 5 (100 in cell 19)
//   behavior, course  the exact value
//   student           lower(student_name): the number of distinct students is its row count
// analytics_latest_report: the latest report of each (student, course), names compared
// without case: the at-risk list reads it.
//
// Statement-level triggers with transition tables keep both in step with student_reports in
// the same transaction as the change (one upsert per touched key per statement, so bulk inserts
// stay fast). Written literally: a migration must keep meaning what it meant when it ran.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table analytics_report_rollup (
      dim text not null,
      key text not null,
      n bigint not null default 0,
      sum_x bigint not null default 0,
      sum_y bigint not null default 0,
      sum_xx bigint not null default 0,
      sum_xy bigint not null default 0,
      sum_yy bigint not null default 0,
      primary key (dim, key)
    )`.execute(db);

  await sql`
    create table analytics_latest_report (
      student_key text not null,
      course_key text not null,
      report_id uuid not null,
      student_name text not null,
      course text not null,
      marks integer not null,
      attendance integer not null,
      created_at timestamptz not null,
      primary key (student_key, course_key)
    )`.execute(db);

  // Finds the latest report of a (student, course) again when the latest one is edited or deleted.
  await sql`
    create index student_reports_latest_idx
      on student_reports (lower(student_name), lower(course), created_at desc, id desc)`.execute(
    db,
  );

  // The (dim, key) rows one report contributes to.
  await sql`
    create function analytics_report_keys(r student_reports)
    returns table (dim text, key text) language sql immutable as $$
      values
        ('all', ''),
        ('marks', least(width_bucket(r.marks, 0, 100, 10), 10)::text),
        ('cell', least(r.attendance / 5, 19)::text || ':' || least(r.marks / 5, 19)::text),
        ('behavior', r.behavior),
        ('course', r.course),
        ('student', lower(r.student_name))
    $$`.execute(db);

  // Finds the latest report of each given (student key, course key) again.
  await sql`
    create function analytics_refresh_latest(pairs text[][]) returns void language sql as $$
      delete from analytics_latest_report l
        using (select pairs[i][1] as sk, pairs[i][2] as ck
               from generate_subscripts(pairs, 1) as i) t
        where l.student_key = t.sk and l.course_key = t.ck;
      insert into analytics_latest_report
      select t.sk, t.ck, s.id, s.student_name, s.course, s.marks, s.attendance, s.created_at
      from (select distinct pairs[i][1] as sk, pairs[i][2] as ck
            from generate_subscripts(pairs, 1) as i) t
      cross join lateral (
        select * from student_reports s
        where lower(s.student_name) = t.sk and lower(s.course) = t.ck
        order by s.created_at desc, s.id desc
        limit 1
      ) s
      on conflict (student_key, course_key) do nothing;
    $$`.execute(db);

  await sql`
    create function analytics_reports_changed() returns trigger language plpgsql as $$
    begin
      -- Rollup rows are upserted in (dim, key) order so that concurrent writers lock them in the
      -- same order and never deadlock (every report touches the shared ('all', '') row).
      if tg_op in ('UPDATE', 'DELETE') then
        insert into analytics_report_rollup as t (dim, key, n, sum_x, sum_y, sum_xx, sum_xy, sum_yy)
        select k.dim, k.key, -count(*), -sum(o.attendance), -sum(o.marks),
          -sum(o.attendance * o.attendance), -sum(o.attendance * o.marks), -sum(o.marks * o.marks)
        from old_rows o cross join lateral analytics_report_keys(o) k
        group by k.dim, k.key
        order by k.dim, k.key
        on conflict (dim, key) do update set
          n = t.n + excluded.n, sum_x = t.sum_x + excluded.sum_x, sum_y = t.sum_y + excluded.sum_y,
          sum_xx = t.sum_xx + excluded.sum_xx, sum_xy = t.sum_xy + excluded.sum_xy,
          sum_yy = t.sum_yy + excluded.sum_yy;
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        insert into analytics_report_rollup as t (dim, key, n, sum_x, sum_y, sum_xx, sum_xy, sum_yy)
        select k.dim, k.key, count(*), sum(r.attendance), sum(r.marks),
          sum(r.attendance * r.attendance), sum(r.attendance * r.marks), sum(r.marks * r.marks)
        from new_rows r cross join lateral analytics_report_keys(r) k
        group by k.dim, k.key
        order by k.dim, k.key
        on conflict (dim, key) do update set
          n = t.n + excluded.n, sum_x = t.sum_x + excluded.sum_x, sum_y = t.sum_y + excluded.sum_y,
          sum_xx = t.sum_xx + excluded.sum_xx, sum_xy = t.sum_xy + excluded.sum_xy,
          sum_yy = t.sum_yy + excluded.sum_yy;
      end if;
      delete from analytics_report_rollup where n = 0;

      if tg_op = 'INSERT' then
        -- A newer report replaces the latest one of its (student, course); an older one does not.
        insert into analytics_latest_report as l
        select distinct on (lower(r.student_name), lower(r.course))
          lower(r.student_name), lower(r.course), r.id, r.student_name, r.course, r.marks,
          r.attendance, r.created_at
        from new_rows r
        order by lower(r.student_name), lower(r.course), r.created_at desc, r.id desc
        on conflict (student_key, course_key) do update set
          report_id = excluded.report_id, student_name = excluded.student_name,
          course = excluded.course, marks = excluded.marks, attendance = excluded.attendance,
          created_at = excluded.created_at
        where (excluded.created_at, excluded.report_id) > (l.created_at, l.report_id);
      elsif tg_op = 'UPDATE' then
        -- An edit: find the latest report of each touched (student, course) again.
        perform analytics_refresh_latest(array(
          select array[lower(student_name), lower(course)] from old_rows
          union select array[lower(student_name), lower(course)] from new_rows));
      else
        perform analytics_refresh_latest(array(
          select array[lower(student_name), lower(course)] from old_rows));
      end if;
      return null;
    end $$`.execute(db);

  await sql`
    create trigger analytics_reports_inserted after insert on student_reports
      referencing new table as new_rows
      for each statement execute function analytics_reports_changed()`.execute(db);
  await sql`
    create trigger analytics_reports_updated after update on student_reports
      referencing old table as old_rows new table as new_rows
      for each statement execute function analytics_reports_changed()`.execute(db);
  await sql`
    create trigger analytics_reports_deleted after delete on student_reports
      referencing old table as old_rows
      for each statement execute function analytics_reports_changed()`.execute(db);
  await sql`
    create function analytics_reports_truncated() returns trigger language plpgsql as $$
    begin
      delete from analytics_report_rollup;
      delete from analytics_latest_report;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger analytics_reports_truncated after truncate on student_reports
      for each statement execute function analytics_reports_truncated()`.execute(db);

  // Reports written before this migration.
  await sql`
    insert into analytics_report_rollup (dim, key, n, sum_x, sum_y, sum_xx, sum_xy, sum_yy)
    select k.dim, k.key, count(*), sum(r.attendance), sum(r.marks),
      sum(r.attendance * r.attendance), sum(r.attendance * r.marks), sum(r.marks * r.marks)
    from student_reports r cross join lateral analytics_report_keys(r) k
    group by k.dim, k.key`.execute(db);
  await sql`
    insert into analytics_latest_report
    select distinct on (lower(student_name), lower(course))
      lower(student_name), lower(course), id, student_name, course, marks, attendance, created_at
    from student_reports
    order by lower(student_name), lower(course), created_at desc, id desc`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const trigger of [
    "analytics_reports_inserted",
    "analytics_reports_updated",
    "analytics_reports_deleted",
    "analytics_reports_truncated",
  ]) {
    await sql`drop trigger if exists ${sql.raw(trigger)} on student_reports`.execute(db);
  }
  await sql`drop function if exists analytics_reports_changed()`.execute(db);
  await sql`drop function if exists analytics_reports_truncated()`.execute(db);
  await sql`drop function if exists analytics_report_keys(student_reports)`.execute(db);
  await sql`drop function if exists analytics_refresh_latest(text[])`.execute(db);
  await sql`drop index if exists student_reports_latest_idx`.execute(db);
  await sql`drop table if exists analytics_latest_report`.execute(db);
  await sql`drop table if exists analytics_report_rollup`.execute(db);
}
