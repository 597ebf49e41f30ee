import { randomBytes, randomUUID } from "node:crypto";
import type { BenchDb } from "./seeded.ts";

// A bench school's rows as they are written straight into the database: its classes, its
// students (accounts no one signs in to), and large inserts cut into statements of a bounded size.

/**
 * `count` classes of 2025-26, "Class 1" onwards, mathematics and Portuguese in turn; their ids.
 */
export async function writeClasses(db: BenchDb, count: number): Promise<string[]> {
  const classIds: string[] = [];
  for (let c = 0; c < count; c++) {
    const row = await db
      .insertInto("classes")
      .values({ name: `Class ${c + 1}`, subject: c % 2 ? "por" : "mat", year: "2025-26" })
      .returning("id")
      .executeTakeFirstOrThrow();
    classIds.push(row.id);
  }
  return classIds;
}

/** The `n`th student's users row: a new id, an address of its own, no password to sign in with. */
export const studentRow = (n: number) => ({
  id: randomUUID(),
  name: `Student ${n}`,
  email: `s${n}.${randomBytes(3).toString("hex")}@bench.test`,
  password_hash: "x",
  role: "student" as const,
  pending_role: null,
  mfa_secret: null,
  mfa_pending_secret: null,
  mfa_enabled_at: null,
  mfa_last_step: null,
});

/**
 * Writes `rows` `size` at a time (a statement's parameters are bounded): `write` gets each slice
 * and the index it starts at.
 */
export async function inChunks<T>(
  rows: readonly T[],
  size: number,
  write: (slice: T[], start: number) => Promise<unknown>,
): Promise<void> {
  for (let start = 0; start < rows.length; start += size) {
    await write(rows.slice(start, start + size), start);
  }
}
