import type { ClassView } from "@gradecast/contract/classes";
import { sql } from "kysely";
import { describe, expect } from "vitest";
import { uniqueEmail } from "../support/accounts.ts";
import { api } from "../support/class-helpers.ts";
import { apiTests, type People, type Person } from "../support/fixtures.ts";
import { auditOf, dialects, type TestApp } from "../support/helpers.ts";

// Every change to a class is written with its audit entry in one transaction (issue 17): when
// the entry cannot be written, the change does not happen either. Each case makes the audit
// log refuse one action (a trigger), calls the route, and checks the class is as it was; with
// the trigger gone the same call succeeds and leaves its entry.
const cast = {
  teacher: "teacher",
  coTeacher: "teacher",
  student: "student",
  admin: "admin",
} satisfies Record<string, Person>;
const tests = apiTests({ env: { RATE_LIMITS: "off" }, people: cast });

describe.each(dialects)("class changes and their audit entries (%s)", (dialect) => {
  const test = tests[dialect];
  let c: ReturnType<typeof api>;

  test.beforeAll(async ({ t }) => {
    c = api(t);
  });
  test.afterEach(async ({ t }) => {
    await sql`drop trigger if exists refuse_audit on audit_log`.execute(t.database.db);
  });

  /** The audit log refuses `action` from now on (a trigger, until the case drops it). */
  async function refuse(t: TestApp, action: string) {
    const literal = sql.lit(action);
    await sql`
      create or replace function refuse_audit() returns trigger language plpgsql as $$
      begin
        if new.action = ${literal} then raise exception 'audit refused'; end if;
        return new;
      end $$`.execute(t.database.db);
    await sql`create trigger refuse_audit before insert on audit_log for each row
      execute function refuse_audit()`.execute(t.database.db);
  }

  const classOf = async (people: People<typeof cast>, id: string) =>
    (await c.call("GET", `/api/classes/${id}`, people.teacher)).json().class as ClassView;
  const members = async (people: People<typeof cast>, id: string) =>
    (await c.call("GET", `/api/classes/${id}/members`, people.teacher)).json() as {
      students: { id: string }[];
      invitations: { email: string }[];
    };

  const addCoTeacher = (k: ClassView, people: People<typeof cast>) =>
    c.call("POST", `/api/classes/${k.id}/teachers`, people.teacher, {
      email: people.coTeacher.email,
    });

  const cases: {
    action: string;
    call: (k: ClassView, people: People<typeof cast>) => Promise<{ statusCode: number }>;
    state: (k: ClassView, people: People<typeof cast>) => Promise<unknown>;
  }[] = [
    {
      action: "class.code_rotated",
      call: (k, people) => c.call("POST", `/api/classes/${k.id}/join-code`, people.teacher),
      state: async (k, people) => (await classOf(people, k.id)).joinCode,
    },
    {
      action: "class.code_disabled",
      call: (k, people) => c.call("DELETE", `/api/classes/${k.id}/join-code`, people.teacher),
      state: async (k, people) => (await classOf(people, k.id)).joinCode,
    },
    {
      action: "class.teacher_added",
      call: addCoTeacher,
      state: async (k, people) => (await classOf(people, k.id)).teachers.length,
    },
    {
      action: "class.student_joined",
      call: (k, people) => c.join(people.student, k.joinCode),
      state: async (k, people) => (await members(people, k.id)).students.length,
    },
    {
      action: "class.student_removed",
      call: async (k, people) => {
        await c.join(people.student, k.joinCode);
        return c.takeOff(people.teacher, k.id, "students", people.student);
      },
      state: async (k, people) => (await members(people, k.id)).students.length,
    },
    {
      action: "class.teacher_removed",
      call: async (k, people) => {
        await addCoTeacher(k, people);
        return c.takeOff(people.teacher, k.id, "teachers", people.coTeacher);
      },
      state: async (k, people) => (await classOf(people, k.id)).teachers.length,
    },
    {
      action: "class.invitation_cancelled",
      call: async (k, people) => {
        const email = uniqueEmail("invited");
        await c.roster(people.teacher, k.id, `name,email\nIn Vited,${email}\n`, false);
        return c.call("DELETE", `/api/classes/${k.id}/invitations/${email}`, people.admin);
      },
      state: async (k, people) => (await members(people, k.id)).invitations.length,
    },
  ];

  for (const { action, call, state } of cases) {
    test(`${action}: no change without its audit entry`, async ({ t, people }) => {
      const refused = await c.createClass(people.teacher, { name: `Atomic ${action}` });
      const before = await state(refused, people);
      await refuse(t, action);
      const res = await call(refused, people);
      expect(res.statusCode).toBe(500);
      await sql`drop trigger refuse_audit on audit_log`.execute(t.database.db);
      // Whatever the call set up first stands; the change itself does not.
      const setUp = action === "class.student_removed" || action === "class.teacher_removed";
      const expected = setUp ? (before as number) + 1 : before;
      if (action === "class.invitation_cancelled") expect(await state(refused, people)).toBe(1);
      else expect(await state(refused, people)).toEqual(expected);
      expect(await auditOf(t, action, refused.id)).toEqual([]);

      const allowed = await c.createClass(people.teacher, { name: `Audited ${action}` });
      const ok = await call(allowed, people);
      expect(ok.statusCode).toBeLessThan(300);
      expect(await auditOf(t, action, allowed.id)).toHaveLength(1);
    });
  }
});
