import { type GradeModel, loadModel, type ModelInput } from "@gradecast/model";
import type { FastifyBaseLogger } from "fastify";
import type { Kysely } from "kysely";
import type { DB } from "../db/schema.ts";

// The model in use (issue 30), one for every instance: the database's active row of
// model_versions names it (none: the shipped artifact). Each instance reads that row at most
// every `ttlMs` (5 s) and loads the artifact when the name changed; a promotion or rollback on
// this instance, and the recomputation job, read it at once. Route handlers keep calling
// `services.model` synchronously: it is a stand-in that answers with the loaded version.

export const activeTtlMs = 5000;

export interface ModelRegistry {
  /** The model in use, as last read (a stand-in whose calls go to the loaded version). */
  readonly model: GradeModel;
  /** The artifact in the package: the first version. */
  readonly shipped: GradeModel;
  /** Reads the active version (unless read in the last ttl, or `force`), loads it when new. */
  refresh(force?: boolean): Promise<GradeModel>;
  /** A version's model by id (the shipped one, or a stored artifact), cached. */
  load(id: string): Promise<GradeModel | undefined>;
  start(): void;
  stop(): void;
}

const parsed = (v: unknown) => (typeof v === "string" ? JSON.parse(v) : v);

export function createModelRegistry(
  db: Kysely<DB>,
  shipped: GradeModel,
  log: FastifyBaseLogger,
  ttlMs = activeTtlMs,
): ModelRegistry {
  let current = shipped;
  let readAt = 0;
  let timer: NodeJS.Timeout | undefined;
  const loaded = new Map<string, GradeModel>([[shipped.version, shipped]]);
  let pending: Promise<GradeModel> | undefined;

  async function load(id: string): Promise<GradeModel | undefined> {
    const had = loaded.get(id);
    if (had) return had;
    const row = await db
      .selectFrom("model_versions")
      .select("artifact")
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row?.artifact) return undefined;
    const model = loadModel(parsed(row.artifact));
    // a handful of versions at most are ever asked for; the oldest goes past eight
    if (loaded.size >= 8) {
      const oldest = [...loaded.keys()].find((k) => k !== shipped.version && k !== current.version);
      if (oldest) loaded.delete(oldest);
    }
    loaded.set(id, model);
    return model;
  }

  async function read(): Promise<GradeModel> {
    const row = await db
      .selectFrom("model_versions")
      .select("id")
      .where("state", "=", "active")
      .executeTakeFirst();
    const id = row?.id ?? shipped.version;
    if (id !== current.version) {
      const next = (await load(id)) ?? shipped;
      if (next.version !== current.version) {
        log.info({ from: current.version, to: next.version }, "model version changed");
      }
      current = next;
    }
    readAt = Date.now();
    return current;
  }

  const stand: GradeModel = {
    get version() {
      return current.version;
    },
    get features() {
      return current.features;
    },
    get globalImportance() {
      return current.globalImportance;
    },
    get evaluation() {
      return current.evaluation;
    },
    get artifact() {
      return current.artifact;
    },
    get setups() {
      return current.setups;
    },
    predict: (input: ModelInput) => current.predict(input),
  };

  return {
    model: stand,
    shipped,
    load,
    refresh(force = false) {
      if (!force && Date.now() - readAt < ttlMs) return Promise.resolve(current);
      pending ??= read().finally(() => {
        pending = undefined;
      });
      return pending;
    },
    start() {
      timer ??= setInterval(() => {
        this.refresh().catch((err) => log.warn({ err }, "could not read the model in use"));
      }, ttlMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}
