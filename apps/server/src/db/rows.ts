import { type Kysely, type SelectQueryBuilder, sql } from "kysely";
import type { DB } from "./schema.ts";

// The statements that many domains write the same way: is there a row matching these columns,
// delete or update the rows matching them, set a timestamp once, insert a key unless it is there. One place for each shape, so a domain's
// queries file keeps only the statements that are its own.

type Table = keyof DB & string;
/** Columns of one table and the values they must equal (null: the column is still null). */
/** Columns of one table and their new values. */
type Changes<T extends Table> = Partial<Record<keyof DB[T] & string, unknown>>;
export type Match<T extends Table> = { [C in keyof DB[T] & string]?: string | boolean | null };

// The column names are checked by Match at the call; Kysely cannot follow a table chosen by a
// type parameter, so the statements below are built on an untyped view of the same database.
// biome-ignore lint/suspicious/noExplicitAny: see above
const untyped = (db: Kysely<DB>) => db as unknown as Kysely<any>;

/** Whether a row of `table` matches every column given. */
export async function hasRow<T extends Table>(
  db: Kysely<DB>,
  table: T,
  match: Match<T>,
): Promise<boolean> {
  const row = await untyped(db)
    .selectFrom(table as string)
    .select((eb) => eb.lit(1).as("one"))
    .where((eb) => eb.and(match))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** How many rows of `table` match every column given. */
export async function countRows<T extends Table>(
  db: Kysely<DB>,
  table: T,
  match: Match<T>,
): Promise<number> {
  const row = await untyped(db)
    .selectFrom(table as string)
    .select((eb) => eb.fn.countAll().as("n"))
    .where((eb) => eb.and(match))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The values of one text column over the rows that match, as a set. */
export async function columnSet<T extends Table>(
  db: Kysely<DB>,
  table: T,
  column: keyof DB[T] & string,
  match: Match<T>,
): Promise<Set<string>> {
  const rows = await untyped(db)
    .selectFrom(table as string)
    .select(sql.ref<string>(column).as("value"))
    .where((eb) => eb.and(match))
    .execute();
  return new Set(rows.map((row) => row.value));
}

/** Deletes the rows of `table` that match; how many there were. */
export async function deleteRows<T extends Table>(
  db: Kysely<DB>,
  table: T,
  match: Match<T>,
): Promise<number> {
  const result = await untyped(db)
    .deleteFrom(table as string)
    .where((eb) => eb.and(match))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Sets `changes` on the rows of `table` that match; whether there were any. */
export async function updateRows<T extends Table>(
  db: Kysely<DB>,
  table: T,
  changes: Changes<T>,
  match: Match<T>,
): Promise<boolean> {
  const result = await untyped(db)
    .updateTable(table as string)
    .set(changes)
    .where((eb) => eb.and(match))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Sets a timestamp column (revoked_at, used_at, consumed_at) on the matching rows where it is
 * still null: a token, code or session ends once, and of two concurrent calls only one counts.
 * Whether it set any.
 */
export function stampOnce<T extends Table>(
  db: Kysely<DB>,
  table: T,
  column: keyof DB[T] & string,
  at: Date,
  match: Match<T>,
): Promise<boolean> {
  return updateRows(db, table, { [column]: at } as Changes<T>, { ...match, [column]: null });
}

/** Inserts a row unless one with the same key columns exists; whether it did. */
export async function insertNew<T extends Table>(
  db: Kysely<DB>,
  table: T,
  key: Match<T>,
): Promise<boolean> {
  const result = await untyped(db)
    .insertInto(table as string)
    .values(key)
    .onConflict((oc) => oc.columns(Object.keys(key)).doNothing())
    .executeTakeFirst();
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

/** Whose records a listing reads (undefined: everyone's) and how many at most. */
export interface OwnedRecordsQuery {
  userId: string | undefined;
  limit: number;
}

/** A listing newest first: one user's rows or everyone's, at most limit. */
export function newestFirst<T extends "predictions" | "students", O>(
  q: SelectQueryBuilder<DB, T, O>,
  options: OwnedRecordsQuery,
): SelectQueryBuilder<DB, T, O> {
  const { userId, limit } = options;
  return q
    .$if(userId !== undefined, (q) => q.where(sql.ref<string>("user_id"), "=", userId!))
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit);
}
