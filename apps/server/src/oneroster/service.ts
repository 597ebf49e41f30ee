import { randomUUID } from "node:crypto";
import {
  oneRosterMessages as m,
  type OneRosterChangeKind,
  type OneRosterMode,
  type OneRosterResult,
  oneRosterChangeKinds,
  oneRosterLimits,
} from "@gradecast/contract/oneroster";
import { sql } from "kysely";
import { type AuditEntry, audit, who } from "../audit/audit.ts";
import type { Actor } from "../auth/actor.ts";
import { forgetRecordContext } from "../db/record-context.ts";
import { invalid } from "../domain-errors.ts";
import { localizedTeacherInvitationEmail } from "../i18n/emails.ts";
import { enqueueJob, jobKinds } from "../jobs/queue.ts";
import { appUrl } from "../mail/send.ts";
import type { Services } from "../services.ts";
import { readBundle } from "./bundle.ts";
import { oneRosterJobs } from "./invitation-mail.ts";

// Rosters from the school's system (issue 34, decision 0025). The bundle is read and checked
// whole (any bad line: nothing changes), compared with what earlier imports stored (keyed by
// sourcedId) and with the app's classes, then applied in one transaction with set-based
// statements (one array parameter per column, unnest), so a repeated import changes nothing.

type Db = Services["db"];
interface Enrolment {
  classSourcedId: string;
  userSourcedId: string;
  role: "student" | "teacher";
}
interface Person {
  email: string;
  name: string;
}

export async function importOneRoster(
  services: Services,
  actor: Actor,
  body: unknown,
  mode: OneRosterMode,
  dryRun: boolean,
): Promise<OneRosterResult> {
  if (!Buffer.isBuffer(body)) throw invalid(m.notZip, { bundle: m.notZip });
  const { bundle, errors } = await readBundle(body, mode);
  const db = services.db;
  const [knownClasses, knownUsers, knownEnrolments] = await Promise.all([
    db.selectFrom("oneroster_classes").select(["sourced_id", "class_id"]).execute(),
    db.selectFrom("oneroster_users").select(["sourced_id", "email", "name"]).execute(),
    db
      .selectFrom("oneroster_enrolments")
      .select(["sourced_id", "class_sourced_id", "user_sourced_id", "role"])
      .execute(),
  ]);
  const classLink = new Map(knownClasses.map((r) => [r.sourced_id, r.class_id]));
  const oldUsers = new Map<string, Person>(knownUsers.map((r) => [r.sourced_id, r]));
  const oldEnrolments = new Map<string, Enrolment>(
    knownEnrolments.map((r) => [
      r.sourced_id,
      { classSourcedId: r.class_sourced_id, userSourcedId: r.user_sourced_id, role: r.role },
    ]),
  );

  // References: an active class's course, an active enrolment's class and user.
  const delta = mode === "delta";
  const fail = (key: string, reason: string) => {
    if (!errors.has(key)) errors.set(key, reason);
  };
  for (const [, c] of bundle.classes) {
    if (c.status === "active" && !bundle.courses.has(c.courseSourcedId)) {
      fail(`classes.csv line ${c.line}`, m.unknownReference("courseSourcedId", c.courseSourcedId));
    }
  }
  const skipped: string[] = [];
  for (const [id, e] of bundle.enrolments) {
    if (e.status !== "active") continue;
    const key = `enrollments.csv line ${e.line}`;
    const klass = bundle.classes.get(e.classSourcedId);
    if (!(klass?.status === "active" || (delta && !klass && classLink.has(e.classSourcedId)))) {
      fail(key, m.unknownReference("classSourcedId", e.classSourcedId));
      continue;
    }
    const user = bundle.users.get(e.userSourcedId);
    if (!(user?.status === "active" || (delta && !user && oldUsers.has(e.userSourcedId)))) {
      fail(key, m.unknownReference("userSourcedId", e.userSourcedId));
      continue;
    }
    if (e.role !== "student" && e.role !== "teacher") skipped.push(`${id} (${e.role})`);
    else if (user && user.email === "") fail(`users.csv line ${user.line}`, m.noEmail);
  }
  if (errors.size > 0) {
    const all = [...errors];
    const fields = Object.fromEntries(all.slice(0, oneRosterLimits.errors));
    if (all.length > oneRosterLimits.errors) {
      fields.more = m.moreErrors(all.length - oneRosterLimits.errors);
    }
    throw invalid(m.rejected(all.length), fields);
  }

  // The classes the bundle brings, with their subject; a course that maps to none is reported.
  const changes = Object.fromEntries(
    oneRosterChangeKinds.map((k) => [k, [] as string[]]),
  ) as Record<OneRosterChangeKind, string[]>;
  changes.skipped.push(...skipped);
  const subjects = services.config.oneRosterSubjects;
  const mapped = new Map<string, { name: string; subject: "mat" | "por"; year: string }>();
  const gone = new Set<string>();
  for (const [id, c] of bundle.classes) {
    if (c.status !== "active") {
      gone.add(id);
      continue;
    }
    const course = bundle.courses.get(c.courseSourcedId);
    const subject = course ? subjects.get(course.code) : undefined;
    if (!subject) {
      changes.unmappedClasses.push(`${c.title} (${course?.code ?? c.courseSourcedId})`);
      gone.add(id);
      continue;
    }
    const term = c.termSourcedIds.map((t) => bundle.sessions.get(t)).find(Boolean);
    const year = (term?.schoolYear || term?.title || "OneRoster").slice(0, 20);
    mapped.set(id, { name: c.title.slice(0, 100), subject, year });
  }
  const users = new Map<string, Person>(oldUsers);
  const goneUsers = new Set<string>();
  for (const [id, u] of bundle.users) {
    if (u.status === "active") users.set(id, { email: u.email, name: u.name });
    else goneUsers.add(id);
  }

  // The roster after this import: a bulk bundle is the whole of it; a delta changes what it lists.
  const next = new Map<string, Enrolment>(delta ? oldEnrolments : []);
  for (const [id, e] of bundle.enrolments) {
    next.delete(id);
    if (e.status !== "active" || (e.role !== "student" && e.role !== "teacher")) continue;
    next.set(id, {
      classSourcedId: e.classSourcedId,
      userSourcedId: e.userSourcedId,
      role: e.role,
    });
  }
  for (const [id, e] of next) {
    const classOk = mapped.has(e.classSourcedId) || (!gone.has(e.classSourcedId) && delta);
    if (!classOk || goneUsers.has(e.userSourcedId) || !users.has(e.userSourcedId)) next.delete(id);
  }
  const same = (a: Enrolment, b: Enrolment) =>
    a.classSourcedId === b.classSourcedId &&
    a.userSourcedId === b.userSourcedId &&
    a.role === b.role;
  const added = [...next].filter(
    ([id, e]) => !(oldEnrolments.has(id) && same(oldEnrolments.get(id) as Enrolment, e)),
  );
  const removed = [...oldEnrolments].filter(([id, e]) => {
    const now = next.get(id);
    return !now || !same(now, e);
  });

  // The app's side: classes, accounts, memberships.
  const newClassIds = new Map<string, string>();
  for (const id of mapped.keys()) if (!classLink.has(id)) newClassIds.set(id, randomUUID());
  const classIdOf = (sid: string) => classLink.get(sid) ?? newClassIds.get(sid) ?? "";
  const linkedIds = [...mapped.keys()]
    .filter((id) => classLink.has(id))
    .map((id) => classLink.get(id) as string);
  const emails = [
    ...new Set(
      [...next.values(), ...removed.map(([, e]) => e)].map(
        (e) => users.get(e.userSourcedId)?.email ?? oldUsers.get(e.userSourcedId)?.email ?? "",
      ),
    ),
  ];
  const touchedClassIds = [
    ...new Set(
      [...next.values(), ...removed.map(([, e]) => e)]
        .map((e) => classIdOf(e.classSourcedId))
        .filter(Boolean),
    ),
  ];
  const [current, accounts, teaching, enrolled, invited, teacherInvites] = await Promise.all([
    linkedIds.length
      ? db
          .selectFrom("classes")
          .select(["id", "name", "subject", "year"])
          .where(sql<boolean>`id = any(${linkedIds}::uuid[])`)
          .execute()
      : [],
    emails.length
      ? db
          .selectFrom("users")
          .select(["id", "email", "role", "pending_role", "email_verified", "disabled"])
          .where(sql<boolean>`email = any(${emails}::text[])`)
          .execute()
      : [],
    pairs(db, "class_teachers", "teacher_id", touchedClassIds),
    pairs(db, "enrolments", "student_id", touchedClassIds),
    touchedClassIds.length
      ? db
          .selectFrom("class_invitations")
          .select(["class_id", "email"])
          .where(sql<boolean>`class_id = any(${touchedClassIds}::uuid[])`)
          .execute()
      : [],
    emails.length
      ? db
          .selectFrom("teacher_invitations")
          .select("email")
          .where(sql<boolean>`email = any(${emails}::text[])`)
          .execute()
      : [],
  ]);
  const currentById = new Map(current.map((c) => [c.id, c]));
  for (const [sid, c] of mapped) {
    const link = classLink.get(sid);
    if (!link) changes.classesCreated.push(`${c.name} (${c.subject}, ${c.year})`);
    else {
      const was = currentById.get(link);
      if (was && (was.name !== c.name || was.subject !== c.subject || was.year !== c.year)) {
        changes.classesUpdated.push(`${was.name} -> ${c.name} (${c.subject}, ${c.year})`);
      }
    }
  }
  const accountOf = new Map(accounts.map((a) => [a.email, a]));
  const invitedSet = new Set(invited.map((r) => `${r.class_id} ${r.email}`));
  const invitedTeachers = new Set(teacherInvites.map((r) => r.email));

  const approve: { id: string; email: string; pending: boolean }[] = [];
  const inviteTeachers: Person[] = [];
  const teacherIds = new Map<string, string>();
  const decided = new Set<string>();
  for (const e of next.values()) {
    if (e.role !== "teacher" || decided.has(e.userSourcedId)) continue;
    decided.add(e.userSourcedId);
    const person = users.get(e.userSourcedId) as Person;
    const account = accountOf.get(person.email);
    if (!account || (!account.email_verified && account.role === "student")) {
      // No account, or one whose owner has not proven the address: a teacher invitation, which
      // makes the address's account a teacher once it is verified.
      if (!invitedTeachers.has(person.email)) {
        inviteTeachers.push(person);
        changes.teachersInvited.push(`${person.name} <${person.email}>`);
      }
    } else if (account.disabled || account.role === "admin") {
      changes.skipped.push(`${person.email} (${account.disabled ? "disabled" : "admin"} account)`);
    } else {
      if (account.role === "student") {
        approve.push({
          id: account.id,
          email: account.email,
          pending: account.pending_role !== null,
        });
        changes.teachersApproved.push(`${person.name} <${person.email}>`);
      }
      teacherIds.set(e.userSourcedId, account.id);
    }
  }
  const addTeachers: [string, string][] = [];
  const addInvites: { classId: string; email: string; name: string; needsConsent: boolean }[] = [];
  // The school's system is the source of truth for who teaches a roster class (decision 0025):
  // a teacher taken off such a class by hand, whom the roster still lists, is put back, and the
  // preview says so (teachersRestored).
  const addedIds = new Set(added.map(([id]) => id));
  for (const [id, e] of next) {
    const classId = classIdOf(e.classSourcedId);
    const person = users.get(e.userSourcedId) as Person;
    const klass = mapped.get(e.classSourcedId)?.name ?? classId;
    if (e.role === "teacher") {
      const tid = teacherIds.get(e.userSourcedId);
      if (tid && !teaching.has(`${classId} ${tid}`)) {
        teaching.add(`${classId} ${tid}`);
        addTeachers.push([classId, tid]);
        const wasThere = !addedIds.has(id) && classLink.has(e.classSourcedId);
        (wasThere ? changes.teachersRestored : changes.teachersAdded).push(
          `${person.email} -> ${klass}`,
        );
      }
    }
  }
  for (const [, e] of added) {
    if (e.role !== "student") continue;
    const classId = classIdOf(e.classSourcedId);
    const person = users.get(e.userSourcedId) as Person;
    const account = accountOf.get(person.email);
    const klass = mapped.get(e.classSourcedId)?.name ?? classId;
    if (
      (account && enrolled.has(`${classId} ${account.id}`)) ||
      invitedSet.has(`${classId} ${person.email}`)
    ) {
      changes.studentsAlreadyEnrolled.push(`${person.email} -> ${klass}`);
      continue;
    }
    invitedSet.add(`${classId} ${person.email}`);
    addInvites.push({
      classId,
      email: person.email,
      name: person.name,
      needsConsent: account !== undefined,
    });
    changes.studentsInvited.push(`${person.email} -> ${klass}`);
  }
  const endTeachers: [string, string][] = [];
  const endStudents: { classId: string; email: string; studentId: string | null }[] = [];
  for (const [, e] of removed) {
    const classId = classLink.get(e.classSourcedId);
    const person = users.get(e.userSourcedId) ?? oldUsers.get(e.userSourcedId);
    if (!classId || !person) continue;
    const account = accountOf.get(person.email);
    if (e.role === "teacher") {
      if (account && teaching.has(`${classId} ${account.id}`)) {
        endTeachers.push([classId, account.id]);
        changes.teachersRemoved.push(`${person.email} (${classId})`);
      }
    } else if (
      (account && enrolled.has(`${classId} ${account.id}`)) ||
      invitedSet.has(`${classId} ${person.email}`)
    ) {
      endStudents.push({ classId, email: person.email, studentId: account?.id ?? null });
      changes.enrolmentsEnded.push(`${person.email} (${classId})`);
    }
  }

  // Invitation emails, to addresses with no account yet (an account sees its invitation in the
  // app). A teacher invitation's email is written to the mail outbox in the import's transaction
  // (a few); the class invitations' emails, one per address listing its classes, are written
  // after the commit by the "oneroster.invitation-mail" job, which the transaction queues with
  // the invited addresses (invitation-mail.ts). Both are sent by the "mail.send" job. The
  // preview only counts the addresses: it renders nothing.
  const teacherMails = teacherInvitationMails(services, actor, inviteTeachers);
  const studentAddresses = [
    ...new Set(addInvites.filter((i) => !i.needsConsent).map((i) => i.email)),
  ];

  const result = (done: boolean, queued: number): OneRosterResult => ({
    dryRun: !done,
    mode,
    read: bundle.read,
    changes: Object.fromEntries(
      oneRosterChangeKinds.map((k) => [
        k,
        { count: changes[k].length, items: changes[k].slice(0, oneRosterLimits.items) },
      ]),
    ) as OneRosterResult["changes"],
    emailsQueued: queued,
    message: done ? m.done : m.preview,
  });
  if (dryRun) return result(false, teacherMails.length + studentAddresses.length);

  const queued = await db.transaction().execute(async (tx) => {
    const created = [...newClassIds].map(([sid, id]) => ({
      sid,
      id,
      ...(mapped.get(sid) as { name: string; subject: string; year: string }),
    }));
    if (created.length > 0) {
      await sql`
        insert into classes (id, name, subject, year, join_code, created_by)
        select x.id, x.name, x.subject, x.year, null, ${actor.user.id}::uuid
        from unnest(${created.map((c) => c.id)}::uuid[], ${created.map((c) => c.name)}::text[],
          ${created.map((c) => c.subject)}::text[], ${created.map((c) => c.year)}::text[])
          as x(id, name, subject, year)`.execute(tx);
      await sql`
        insert into oneroster_classes (sourced_id, class_id)
        select * from unnest(${created.map((c) => c.sid)}::text[], ${created.map((c) => c.id)}::uuid[])`.execute(
        tx,
      );
    }
    const updated = [...mapped].filter(([sid]) => classLink.has(sid));
    if (updated.length > 0) {
      await sql`
        update classes c set name = x.name, subject = x.subject, year = x.year, updated_at = now()
        from unnest(${updated.map(([sid]) => classLink.get(sid))}::uuid[], ${updated.map(([, c]) => c.name)}::text[],
          ${updated.map(([, c]) => c.subject)}::text[], ${updated.map(([, c]) => c.year)}::text[])
          as x(id, name, subject, year)
        where c.id = x.id and (c.name, c.subject, c.year) is distinct from (x.name, x.subject, x.year)`.execute(
        tx,
      );
    }
    // The roster as stored: its people (those it enrols) and its enrolments.
    const people = [...new Set([...next.values()].map((e) => e.userSourcedId))];
    if (people.length > 0) {
      await sql`
        insert into oneroster_users (sourced_id, email, name)
        select * from unnest(${people}::text[], ${people.map((p) => users.get(p)?.email)}::text[],
          ${people.map((p) => users.get(p)?.name)}::text[])
        on conflict (sourced_id) do update set email = excluded.email, name = excluded.name, updated_at = now()
        where (oneroster_users.email, oneroster_users.name) is distinct from (excluded.email, excluded.name)`.execute(
        tx,
      );
    }
    if (removed.length > 0) {
      await sql`delete from oneroster_enrolments where sourced_id = any(${removed.map(([id]) => id)}::text[])`.execute(
        tx,
      );
    }
    if (added.length > 0) {
      await sql`
        insert into oneroster_enrolments (sourced_id, class_sourced_id, user_sourced_id, role)
        select * from unnest(${added.map(([id]) => id)}::text[], ${added.map(([, e]) => e.classSourcedId)}::text[],
          ${added.map(([, e]) => e.userSourcedId)}::text[], ${added.map(([, e]) => e.role)}::text[])`.execute(
        tx,
      );
    }
    await sql`
      delete from oneroster_users u
      where not exists (select 1 from oneroster_enrolments e where e.user_sourced_id = u.sourced_id)`.execute(
      tx,
    );

    if (approve.length > 0) {
      await sql`
        update users set role = 'teacher', pending_role = null, updated_at = now()
        where id = any(${approve.map((a) => a.id)}::uuid[]) and role = 'student'`.execute(tx);
    }
    if (inviteTeachers.length > 0) {
      await sql`
        insert into teacher_invitations (email, name, invited_by)
        select x.email, x.name, ${actor.user.id}::uuid
        from unnest(${inviteTeachers.map((p) => p.email)}::text[], ${inviteTeachers.map((p) => p.name)}::text[]) as x(email, name)
        on conflict (email) do nothing`.execute(tx);
    }
    if (addTeachers.length > 0) {
      await sql`
        insert into class_teachers (class_id, teacher_id)
        select * from unnest(${addTeachers.map(([c]) => c)}::uuid[], ${addTeachers.map(([, t]) => t)}::uuid[])
        on conflict do nothing`.execute(tx);
    }
    if (endTeachers.length > 0) {
      await sql`
        delete from class_teachers t using unnest(${endTeachers.map(([c]) => c)}::uuid[], ${endTeachers.map(([, t]) => t)}::uuid[]) as x(c, t)
        where t.class_id = x.c and t.teacher_id = x.t`.execute(tx);
    }
    if (addInvites.length > 0) {
      await sql`
        insert into class_invitations (class_id, email, name, invited_by, needs_consent)
        select x.c, x.e, x.n, ${actor.user.id}::uuid, x.k
        from unnest(${addInvites.map((i) => i.classId)}::uuid[], ${addInvites.map((i) => i.email)}::text[],
          ${addInvites.map((i) => i.name)}::text[], ${addInvites.map((i) => i.needsConsent)}::boolean[]) as x(c, e, n, k)
        on conflict do nothing`.execute(tx);
    }
    let written = 0;
    if (teacherMails.length > 0) {
      const mails = teacherMails;
      const rows = await sql<{ id: string }>`
        insert into mail_outbox (recipient, subject, body, kind, dedupe_key)
        select * from unnest(${mails.map((x) => x.to)}::text[], ${mails.map((x) => x.subject)}::text[],
          ${mails.map((x) => x.text)}::text[], ${mails.map((x) => x.kind)}::text[], ${mails.map((x) => x.key)}::text[])
        on conflict (dedupe_key) do nothing
        returning id`.execute(tx);
      written = rows.rows.length;
      if (written > 0) await enqueueJob(tx, { kind: jobKinds.sendMail });
    }
    if (studentAddresses.length > 0) {
      // One job per import (its own key), so its addresses are not merged into a waiting one's.
      await enqueueJob(tx, {
        kind: oneRosterJobs.invitationMail,
        key: randomUUID(),
        payload: { emails: studentAddresses },
        createdBy: actor.user.id,
      });
      written += studentAddresses.length;
    }
    if (endStudents.length > 0) {
      const classIds = endStudents.map((s) => s.classId);
      await sql`
        delete from class_invitations i using unnest(${classIds}::uuid[], ${endStudents.map((s) => s.email)}::text[]) as x(c, e)
        where i.class_id = x.c and i.email = x.e`.execute(tx);
      await sql`
        delete from enrolments n using unnest(${classIds}::uuid[], ${endStudents.map((s) => s.studentId)}::uuid[]) as x(c, s)
        where n.class_id = x.c and n.student_id = x.s`.execute(tx);
    }
    if (endStudents.length > 0 || endTeachers.length > 0) {
      // Sharing is with the teachers who teach the student (decision 0014).
      await sql`
        delete from explanation_share_teachers s where not exists (
          select 1 from enrolments e join class_teachers t on t.class_id = e.class_id
          where e.student_id = s.student_id and t.teacher_id = s.teacher_id)`.execute(tx);
    }
    await audit(tx, [
      ...approve.map(
        (a): AuditEntry => ({
          ...who(actor, a.id),
          action: a.pending ? "admin.teacher_approved" : "admin.role_changed",
          details: { email: a.email, from: "student", to: "teacher", via: "oneroster" },
        }),
      ),
      {
        ...who(actor, null),
        action: "admin.oneroster_imported",
        details: {
          mode,
          ...Object.fromEntries(oneRosterChangeKinds.map((k) => [k, changes[k].length])),
          emailsQueued: written,
        },
      },
    ]);
    return written;
  });
  for (const s of endStudents) if (s.studentId) forgetRecordContext(s.studentId);
  for (const id of newClassIds.values()) forgetRecordContext(id);
  return result(true, queued);
}

interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  kind: string;
  key: string;
}

/** The teacher invitation emails of an import: one per new teacher invitation. */
function teacherInvitationMails(
  services: Services,
  actor: Actor,
  teachers: Person[],
): OutboxMail[] {
  const url = appUrl(services);
  const invitedBy = services.config.schoolName ?? actor.user.name;
  return teachers.map((t) => ({
    to: t.email,
    // No account yet: the school's language (DEFAULT_LOCALE).
    ...localizedTeacherInvitationEmail(services.config.defaultLocale, {
      name: t.name,
      invitedBy,
      appUrl: url,
    }),
    kind: "oneroster_teacher_invitation",
    key: `oneroster:teacher:${t.email}`,
  }));
}

/** "class person" pairs of a membership table, for the given classes. */
async function pairs(
  db: Db,
  table: "class_teachers" | "enrolments",
  person: "teacher_id" | "student_id",
  classIds: string[],
): Promise<Set<string>> {
  if (classIds.length === 0) return new Set();
  const rows = await sql<{ class_id: string; person: string }>`
    select class_id, ${sql.ref(person)} as person from ${sql.table(table)}
    where class_id = any(${classIds}::uuid[])`.execute(db);
  return new Set(rows.rows.map((r) => `${r.class_id} ${r.person}`));
}
