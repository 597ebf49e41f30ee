import { classMessages } from "@gradecast/contract/classes";
import { isId } from "@gradecast/contract/ids";
import type { Actor, PolicyCaller } from "../auth/actor.ts";
import { notFound } from "../domain-errors.ts";
import type { Services } from "../services.ts";
import * as q from "./queries.ts";

// Who may do what with one class, as a domain rule: it knows the caller's relationship to the
// class and nothing of HTTP. Which roles may call a route at all (and whether their email must
// be verified) is the access table's; this decides, for a caller it let through, whether this
// class is theirs. Anybody without the relationship a verb needs gets 404, the same answer as
// for a class that does not exist, so nobody learns that a class they have no part in exists.

/**
 * What a caller is to a class: one of its teachers (the one who created it and co-teachers
 * alike), a student enrolled in it, or an admin (every class, teaching none of them).
 */
export type ClassRelation = "teacher" | "student" | "admin";

/**
 * What a caller does with a class. `read`: see the class (an enrolled student without its join
 * code). `manage`: everything about running it (edit, delete, members, co-teachers, join code,
 * roster, invitations, the risk list, reading the school record). `note`: write an intervention
 * note about one of its students, which only its teachers do (an admin reads the risk list
 * without notes). `record`: change the school record (its teachers; an admin reads it only).
 */
export type ClassVerb = "read" | "manage" | "note" | "record";

/** The verbs each relationship may use; any other is answered 404. */
export const classVerbs: Readonly<Record<ClassRelation, readonly ClassVerb[]>> = {
  teacher: ["read", "manage", "note", "record"],
  admin: ["read", "manage"],
  student: ["read"],
};

/** The class and what the caller is to it, once `verb` was found allowed. */
export interface ClassAccess<V extends ClassVerb = ClassVerb> {
  record: q.ClassRecord;
  relation: ClassRelation;
  verb: V;
}

/** The class and the caller's relationship to it; undefined when it is none or no class. */
export async function classRelation(
  services: Pick<Services, "db">,
  caller: PolicyCaller,
  classId: string,
): Promise<{ record: q.ClassRecord; relation: ClassRelation } | undefined> {
  const record = await q.findClass(services.db, classId);
  if (!record) return undefined;
  const { role, id } = caller.user;
  if (role === "admin") return { record, relation: "admin" };
  if (role === "teacher") {
    return (await q.isTeacherOf(services.db, classId, id))
      ? { record, relation: "teacher" }
      : undefined;
  }
  return (await q.isEnrolled(services.db, classId, id))
    ? { record, relation: "student" }
    : undefined;
}

/** True when `relation` allows `verb` (the table above). */
export const classAllows = (relation: ClassRelation, verb: ClassVerb) =>
  classVerbs[relation].includes(verb);

/**
 * The class when the caller may `verb` it, with their relationship to it; 404 (the class's
 * "not found" message) otherwise. Run it once per request and hand its answer on.
 */
export async function classAccess<V extends ClassVerb>(
  services: Pick<Services, "db">,
  caller: PolicyCaller,
  classId: string,
  verb: V,
): Promise<ClassAccess<V>> {
  const found = await classRelation(services, caller, classId);
  if (!found || !classAllows(found.relation, verb)) throw notFound(classMessages.classNotFound);
  return { ...found, verb };
}

/** A write about one student of a class, as its route calls it after the class check `note`. */
export type StudentWrite<I, R> = (
  services: Services,
  actor: Actor,
  access: ClassAccess<"note">,
  studentId: string,
  input: I,
) => Promise<R>;

/**
 * The write `body` about one student, run with the class's id once `studentId` names a student
 * enrolled in the class the caller was let into; 404 with `message` otherwise, an id that cannot
 * name anybody included. Notes, plans and flag judgements alike.
 */
export function aboutEnrolledStudent<I, R>(
  message: string,
  body: (
    services: Services,
    actor: Actor,
    classId: string,
    studentId: string,
    input: I,
  ) => Promise<R>,
): StudentWrite<I, R> {
  return async (services, actor, access, studentId, input) => {
    const classId = access.record.id;
    if (!isId(studentId) || !(await q.isEnrolled(services.db, classId, studentId))) {
      throw notFound(message);
    }
    return body(services, actor, classId, studentId, input);
  };
}
