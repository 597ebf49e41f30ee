import { randomUUID } from "node:crypto";
import { CompiledQuery, type Kysely, sql } from "kysely";
import { prepared } from "../db/prepared.ts";
import type { DB } from "../db/schema.ts";

// The predictions table: each stored prediction keeps its answers, its score and the version of
// the model that made it.

export interface StoredPrediction {
  id: string;
  userId: string;
  createdAt: Date;
  inputs: unknown;
  score: number;
  rawScore: number;
  intervalLow: number;
  intervalHigh: number;
  extrapolation: boolean;
  modelVersion: string;
}

export interface NewPrediction {
  userId: string;
  inputs: unknown;
  score: number;
  rawScore: number;
  intervalLow: number;
  intervalHigh: number;
  extrapolation: boolean;
  modelVersion: string;
}

const columns =
  '"id", "user_id", "inputs", "score", "raw_score", "interval_low", "interval_high", "extrapolation", "model_version"';
const perRow = 9;

const insertTexts = new Map<number, string>();

/** The insert of n rows: one fixed SQL text per row count, prepared on PostgreSQL. */
function insertSql(n: number): string {
  let text = insertTexts.get(n);
  if (!text) {
    const values = Array.from(
      { length: n },
      (_, r) =>
        `(${Array.from({ length: perRow }, (_, j) => `$${r * perRow + j + 1}`).join(", ")})`,
    );
    text = prepared(
      `insert into "predictions" (${columns}) values ${values.join(", ")} returning "id", "created_at"`,
    );
    insertTexts.set(n, text);
  }
  return text;
}

/** One insert statement for these rows. */
async function insertRows(
  db: Kysely<DB>,
  rows: { id: string; p: NewPrediction }[],
): Promise<Map<string, Date>> {
  const params: unknown[] = [];
  for (const { id, p } of rows) {
    // In the order of `columns`.
    params.push(
      id,
      p.userId,
      JSON.stringify(p.inputs),
      p.score,
      p.rawScore,
      p.intervalLow,
      p.intervalHigh,
      p.extrapolation,
      p.modelVersion,
    );
  }
  const result = await db.executeQuery<{ id: string; created_at: Date | string }>(
    CompiledQuery.raw(insertSql(rows.length), params),
  );
  return new Map(result.rows.map((row) => [row.id, new Date(row.created_at)]));
}

// Stored predictions are written in groups. While one insert runs, the predictions that
// arrive meanwhile wait and then go in together as one statement: a lone prediction is written
// straight away, and under load each pays a share of one statement instead of a whole one (on PGlite
// a one-row insert costs about 1 ms of the server's CPU; in a group of 8, 0.14 ms a row). Ids
// are made here, so each caller gets its own row back whatever order RETURNING uses. If a group
// fails, its rows are written one by one, so one bad row fails only its own request.
const maxGroup = 64;

interface Waiting {
  id: string;
  p: NewPrediction;
  resolve: (saved: { id: string; createdAt: Date }) => void;
  reject: (error: unknown) => void;
}

function createWriter(db: Kysely<DB>) {
  const queue: Waiting[] = [];
  let writing = false;

  async function write(group: Waiting[]) {
    try {
      const saved = await insertRows(db, group);
      for (const w of group) {
        const createdAt = saved.get(w.id);
        if (createdAt) w.resolve({ id: w.id, createdAt });
        else w.reject(new Error("the stored prediction was not returned"));
      }
    } catch (error) {
      if (group.length === 1) {
        group[0]!.reject(error);
        return;
      }
      for (const w of group) await write([w]);
    }
  }

  async function drain() {
    writing = true;
    try {
      while (queue.length > 0) {
        // One turn of the event loop first: requests already received reach the queue (on
        // PGlite a statement holds the event loop while it runs, so none arrive meanwhile).
        await new Promise((resolve) => setImmediate(resolve));
        await write(queue.splice(0, maxGroup));
      }
    } finally {
      writing = false;
    }
  }

  return (p: NewPrediction) =>
    new Promise<{ id: string; createdAt: Date }>((resolve, reject) => {
      queue.push({ id: randomUUID(), p, resolve, reject });
      if (!writing) void drain();
    });
}

const writers = new WeakMap<Kysely<DB>, ReturnType<typeof createWriter>>();

export function insertPrediction(
  db: Kysely<DB>,
  p: NewPrediction,
): Promise<{ id: string; createdAt: Date }> {
  let writer = writers.get(db);
  if (!writer) {
    writer = createWriter(db);
    writers.set(db, writer);
  }
  return writer(p);
}

/** Predictions newest first: one user's, or everyone's when userId is undefined. */
export async function listPredictions(
  db: Kysely<DB>,
  options: { userId: string | undefined; limit: number },
): Promise<StoredPrediction[]> {
  const rows = await db
    .selectFrom("predictions")
    .select([
      "id",
      "user_id as userId",
      "inputs",
      "score",
      "raw_score as rawScore",
      "interval_low as intervalLow",
      "interval_high as intervalHigh",
      "extrapolation",
      "model_version as modelVersion",
    ])
    .select(sql<Date>`created_at`.as("createdAt"))
    .$if(options.userId !== undefined, (q) => q.where("user_id", "=", options.userId!))
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(options.limit)
    .execute();
  return rows.map((r) => ({
    ...r,
    inputs: typeof r.inputs === "string" ? JSON.parse(r.inputs) : r.inputs,
    createdAt: new Date(r.createdAt),
  }));
}
