import type { Client, ClientConfig } from "pg";

// One connection per server instance that LISTENs for the notices of migration 0004: any change
// to the users table, by this instance, another one or `npm run admin:create`, calls onChange
// when its transaction commits. `listening` is true only while that connection is up and has
// answered a heartbeat lately; a cache of users may trust its entries only then. Written here
// rather than with a listener package: it is a few lines over pg's own client, and the rules
// that matter (forget everything on every state change, distrust a silent connection) are ours.
const channel = "gradecast_users";
const heartbeatMs = 5_000;
const retryMs = { first: 1_000, max: 30_000 };

export interface UserNotices {
  readonly listening: boolean;
  close(): Promise<void>;
}

export function listenForUserChanges(
  newClient: (config: ClientConfig) => Client,
  connectionString: string,
  onChange: () => void,
): UserNotices {
  let client: Client | undefined;
  let listening = false;
  let closed = false;
  let retryIn = retryMs.first;
  let retry: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;

  // Any doubt ends the trust: the cache forgets everything, and keeps nothing until the
  // connection is back (notices sent meanwhile are lost).
  const drop = (dead: Client) => {
    if (dead !== client) return;
    client = undefined;
    listening = false;
    onChange();
    clearInterval(heartbeat);
    dead.end().catch(() => {});
    if (closed) return;
    retry = setTimeout(connect, retryIn);
    retry.unref();
    retryIn = Math.min(retryIn * 2, retryMs.max);
  };

  const connect = async () => {
    const c = newClient({
      connectionString,
      connectionTimeoutMillis: 3_000,
      query_timeout: heartbeatMs,
      keepAlive: true,
      application_name: "gradecast-user-notices",
    });
    client = c;
    c.on("error", () => drop(c));
    c.on("end", () => drop(c));
    c.on("notification", (notice) => {
      if (notice.channel === channel) onChange();
    });
    try {
      await c.connect();
      await c.query(`listen ${channel}`);
    } catch {
      drop(c);
      return;
    }
    if (closed || client !== c) return;
    listening = true;
    retryIn = retryMs.first;
    onChange();
    heartbeat = setInterval(() => {
      c.query("select 1").catch(() => drop(c));
    }, heartbeatMs);
    heartbeat.unref();
  };

  void connect();
  return {
    get listening() {
      return listening;
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      clearInterval(heartbeat);
      listening = false;
      const c = client;
      client = undefined;
      await c?.end().catch(() => {});
    },
  };
}
