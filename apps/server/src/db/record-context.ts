import type { Kysely } from "kysely";
import { ExpiringCache } from "../memo.ts";
import type { DB } from "./schema.ts";
import { type ClassContext, recordContextOf } from "./school-records.ts";

// A prediction needs the student's classes, their subjects and the record's values (issue 29);
// reading them on every POST /api/predict cost a query per request. They are kept here per
// student for a few seconds, and forgotten at once when this instance changes them (an
// enrolment, a class's subject, a record value): `forgetRecordContext` is called after the
// change commits. A change made by another instance is seen within the TTL, and a prediction
// made in between carries the record version it used, so it shows as stale, never as current.

const ttlMs = 5_000;
const limit = 10_000;

/** Student ids are unique across databases; the entry keeps its database so tests never mix. */
const contexts = new ExpiringCache<string, { db: Kysely<DB>; classes: ClassContext[] }>(
  ttlMs,
  limit,
);
/** Bumped by every forget: a read that started before one does not store what it read. */
const generation = { value: 0 };

/** The student's classes with their record values, from memory when fresh. */
export async function cachedRecordContext(
  db: Kysely<DB>,
  studentId: string,
  now = Date.now(),
): Promise<ClassContext[]> {
  const hit = contexts.get(studentId, now);
  if (hit && hit.db === db) return hit.classes;
  const started = generation.value;
  const classes = await recordContextOf(db, studentId);
  if (generation.value === started) contexts.set(studentId, { db, classes }, now);
  return classes;
}

/**
 * Forgets what is kept about a student (a student id) or about every student of a class (a class
 * id): call it after an enrolment, a class's subject or a record value changed and committed.
 */
export function forgetRecordContext(id: string): void {
  generation.value++;
  contexts.forget(id);
  contexts.forgetWhere((entry) => entry.classes.some((c) => c.classId === id));
}
