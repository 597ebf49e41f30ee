import { type ClassView, classMessages } from "@gradecast/contract/classes";
import { describe, expect } from "vitest";
import { joinLimits } from "../../src/classes/join-guard.ts";
import { randomIp, type SignedInUser } from "../support/accounts.ts";
import { api } from "../support/class-helpers.ts";
import { apiTests, type Person } from "../support/fixtures.ts";
import { auditOf, dialects, errorOf, type TestApp } from "../support/helpers.ts";

// Joining a class with its code: rotation, switching off, joining twice, and wrong codes
// limited per account and per address (429 with Retry-After).
const cast = { teacher: "teacher", otherTeacher: "teacher" } satisfies Record<string, Person>;
const tests = apiTests({ people: cast });

describe.each(dialects)("class join codes (%s)", (dialect) => {
  const test = tests[dialect];
  let c: ReturnType<typeof api>;
  test.beforeAll(({ t }) => {
    c = api(t);
  });

  const enrolmentsOf = async (t: TestApp, classId: string) =>
    t.database.db.selectFrom("enrolments").selectAll().where("class_id", "=", classId).execute();

  test("enrols a verified student once, however the code is typed", async ({
    t,
    signedIn,
    people,
  }) => {
    const klass = await c.createClass(people.teacher);
    const student = await signedIn("student");
    const code = klass.joinCode ?? "";
    const typed = `${code.slice(0, 4).toLowerCase()}-${code.slice(4)} `;
    const res = await c.join(student, typed);
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe(classMessages.joined);
    expect(res.json().class).not.toHaveProperty("joinCode");
    const again = await c.join(student, code);
    expect(again.statusCode).toBe(200);
    expect(again.json().message).toBe(classMessages.alreadyJoined);
    expect(await enrolmentsOf(t, klass.id)).toHaveLength(1);
    const entries = await auditOf(t, "class.student_joined", klass.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]?.actor_id).toBe(student.user.uid);
  });

  test("refuses teachers, unverified emails, pending teachers and anonymous callers", async ({
    t,
    signedIn,
    people,
  }) => {
    const klass = await c.createClass(people.teacher);
    const cases: [SignedInUser | undefined, number, string][] = [
      [people.otherTeacher, 403, "forbidden"],
      [await signedIn("admin"), 403, "forbidden"],
      [await signedIn("student", { verified: false }), 403, "email_not_verified"],
      [undefined, 401, "unauthorized"],
    ];
    for (const [who, status, code] of cases) {
      const res = await c.join(who, klass.joinCode);
      expect(res.statusCode).toBe(status);
      expect(errorOf(res.body).code).toBe(code);
    }
    // A pending teacher is a student until approved: it may join like one.
    const pending = await signedIn("teacher", { pending: true });
    expect((await c.join(pending, klass.joinCode)).statusCode).toBe(201);
    expect(await enrolmentsOf(t, klass.id)).toHaveLength(1);
  });

  test("names a malformed code and a code no class has", async ({ signedIn }) => {
    const student = await signedIn("student");
    const empty = await c.join(student, "  ");
    expect(errorOf(empty.body).fields).toEqual({ code: classMessages.joinCodeRequired });
    const short = await c.join(student, "ABC");
    expect(errorOf(short.body).fields).toEqual({ code: classMessages.joinCodeInvalid });
    const lookAlike = await c.join(student, "ABCDEFG0");
    expect(errorOf(lookAlike.body).fields).toEqual({ code: classMessages.joinCodeInvalid });
  });

  test("stops the old code when rotated, and every code when switched off", async ({
    t,
    signedIn,
    people,
  }) => {
    const klass = await c.createClass(people.teacher);
    const old = klass.joinCode ?? "";
    const rotatedByOther = await c.call(
      "POST",
      `/api/classes/${klass.id}/join-code`,
      people.otherTeacher,
    );
    expect(rotatedByOther.statusCode).toBe(404);
    const rotated = await c.call("POST", `/api/classes/${klass.id}/join-code`, people.teacher);
    expect(rotated.statusCode).toBe(200);
    const fresh = (rotated.json().class as ClassView).joinCode ?? "";
    expect(fresh).toMatch(/^[A-Z2-9]{8}$/);
    expect(fresh).not.toBe(old);
    expect(await auditOf(t, "class.code_rotated", klass.id)).toHaveLength(1);

    const student = await signedIn("student");
    const stale = await c.join(student, old);
    expect(stale.statusCode).toBe(400);
    expect(errorOf(stale.body)).toEqual({
      code: "invalid_code",
      message: classMessages.joinCodeUnknown,
      fields: { code: classMessages.joinCodeUnknown },
    });
    expect(await enrolmentsOf(t, klass.id)).toHaveLength(0);

    const off = await c.call("DELETE", `/api/classes/${klass.id}/join-code`, people.teacher);
    expect(off.statusCode).toBe(200);
    expect(off.json().class.joinCode).toBeNull();
    expect(await auditOf(t, "class.code_disabled", klass.id)).toHaveLength(1);
    expect((await c.join(student, fresh)).statusCode).toBe(400);
    expect(await enrolmentsOf(t, klass.id)).toHaveLength(0);

    // Rotating switches joining back on, with a code never used before.
    const on = await c.call("POST", `/api/classes/${klass.id}/join-code`, people.teacher);
    const third = on.json().class.joinCode as string;
    expect([old, fresh]).not.toContain(third);
    expect((await c.join(student, third)).statusCode).toBe(201);
  });

  test("limits wrong codes per account, with Retry-After; right codes do not count", async ({
    t,
    signedIn,
    people,
  }) => {
    const klass = await c.createClass(people.teacher);
    const student = await signedIn("student");
    const wrong = (klass.joinCode ?? "").startsWith("A") ? "BBBBBBBB" : "AAAAAAAA";
    // A right code, many times, uses none of the allowance.
    for (let i = 0; i < joinLimits.account + 2; i++) {
      expect((await c.join(student, klass.joinCode)).statusCode).toBeLessThan(300);
    }
    for (let i = 0; i < joinLimits.account; i++) {
      expect((await c.join(student, wrong)).statusCode).toBe(400);
    }
    const limited = await c.join(student, wrong);
    expect(limited.statusCode).toBe(429);
    expect(errorOf(limited.body).code).toBe("rate_limited");
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    // The account is held even with the right code, from any address.
    const other = await c.createClass(people.teacher);
    expect((await c.join(student, other.joinCode)).statusCode).toBe(429);
    expect(await enrolmentsOf(t, other.id)).toHaveLength(0);
  });

  test("limits wrong codes per address across accounts", async ({ signedIn, people }) => {
    const klass = await c.createClass(people.teacher);
    const address = randomIp();
    const perAccount = joinLimits.account;
    const accounts = Math.ceil(joinLimits.address / perAccount);
    const students = await Promise.all(
      Array.from({ length: accounts + 1 }, () => signedIn("student")),
    );
    const wrong = (klass.joinCode ?? "").startsWith("A") ? "BBBBBBBB" : "AAAAAAAA";
    let sent = 0;
    for (const student of students.slice(0, accounts)) {
      for (let i = 0; i < perAccount && sent < joinLimits.address; i++, sent++) {
        expect((await c.join(student, wrong, address)).statusCode).toBe(400);
      }
    }
    const fresh = students[accounts];
    const limited = await c.join(fresh, klass.joinCode, address);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    // The same account from another address is not held.
    expect((await c.join(fresh, klass.joinCode, randomIp())).statusCode).toBe(201);
  });
});
