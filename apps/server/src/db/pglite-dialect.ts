import type { PGlite } from "@electric-sql/pglite";
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from "kysely";

// A Kysely dialect for PGlite. PGlite is one connection; kysely-pglite hands that connection to
// every caller at once, so a request's statements could land inside another request's
// transaction (and vanish with its ROLLBACK). This driver lends the connection to one caller
// at a time, as Kysely's own SQLite driver does.

export class PGliteDialect implements Dialect {
  constructor(private readonly client: PGlite) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.client);
  }
  createIntrospector(db: Parameters<Dialect["createIntrospector"]>[0]) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}

class PGliteDriver implements Driver {
  private queue: Promise<void> = Promise.resolve();
  private readonly connection: DatabaseConnection;

  constructor(private readonly client: PGlite) {
    this.connection = {
      executeQuery: async <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
        const result = await client.query<R>(query.sql, [...query.parameters]);
        return {
          rows: result.rows,
          numAffectedRows:
            result.affectedRows === undefined ? undefined : BigInt(result.affectedRows),
        };
      },
      streamQuery: () => {
        throw new Error("PGlite does not stream results");
      },
    };
  }

  async init() {}

  private release: (() => void) | undefined;

  async acquireConnection(): Promise<DatabaseConnection> {
    const previous = this.queue;
    let release!: () => void;
    this.queue = new Promise((resolve) => {
      release = resolve;
    });
    await previous;
    this.release = release;
    return this.connection;
  }

  async releaseConnection() {
    const release = this.release;
    this.release = undefined;
    release?.();
  }

  // Sent as simple queries: the extended protocol's parse, bind and describe are of no use to a
  // statement without parameters, and a batch of stored predictions sends two of these.
  async beginTransaction() {
    await this.client.exec("begin");
  }
  async commitTransaction() {
    await this.client.exec("commit");
  }
  async rollbackTransaction() {
    await this.client.exec("rollback");
  }
  async destroy() {
    await this.queue;
    await this.client.close();
  }
}
