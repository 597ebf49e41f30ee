import { generateKeyPairSync } from "node:crypto";
import type { AddressInfo } from "node:net";
import { sql } from "kysely";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../../../e2e/server-process.ts";
import { type Database, migrate, openDatabase } from "../../src/db/database.ts";
import { createPostgresDatabase } from "../support/helpers.ts";

// Issue 32: digests with two server processes on one PostgreSQL database (PGlite is embedded in
// one process: this runs only when TEST_DATABASE_URL is set). Both instances ask for the digests
// at start; each person's digest is written once. The SMTP server (in this process) holds the
// third message without accepting it, and both instances are killed (SIGKILL) in the middle of
// that send; a restarted instance sends what was not accepted. Every digest arrives exactly once.

const people = 6;

describe.skipIf(!process.env.TEST_DATABASE_URL)(
  "digests across instances and a SIGKILL mid-send (PostgreSQL only)",
  () => {
    let database: Database;
    let drop: () => Promise<void>;
    let databaseUrl: string;
    let smtp: SMTPServer;
    let smtpPort = 0;
    /** Messages the SMTP server accepted, by recipient. */
    const accepted: string[] = [];
    let hold = true;
    let heldOne: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      heldOne = resolve;
    });
    const servers: RunningServer[] = [];
    const jwtKey = generateKeyPairSync("ed25519")
      .privateKey.export({ type: "pkcs8", format: "pem" })
      .toString();

    const start = () =>
      startServer({
        env: {
          DATABASE_URL: databaseUrl,
          JWT_PRIVATE_KEY: jwtKey,
          SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
          RATE_LIMITS: "off",
        },
      }).then((s) => {
        servers.push(s);
        return s;
      });

    beforeAll(async () => {
      const created = await createPostgresDatabase("gradecast_digest");
      drop = created.drop;
      databaseUrl = created.url;
      database = await openDatabase({ url: databaseUrl, poolSize: 2 });
      await migrate(database.db);
      // Teachers with an alert last week: each is due a weekly digest.
      for (let i = 0; i < people; i++) {
        const user = await database.db
          .insertInto("users")
          .values({
            name: `Teacher ${i}`,
            email: `teacher${i}@digest.example`,
            password_hash: "not-a-password",
            role: "teacher",
            email_verified: true,
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        await database.db
          .insertInto("notifications")
          .values({
            recipient_id: user.id,
            kind: "risk_up",
            payload: "{}",
            created_at: sql<Date>`now() - interval '7 days'`,
          })
          .execute();
      }
      let seen = 0;
      smtp = new SMTPServer({
        authOptional: true,
        disabledCommands: ["STARTTLS", "AUTH"],
        logger: false,
        onData(stream, session, callback) {
          const to = session.envelope.rcptTo.map((r) => r.address).join(",");
          stream.on("data", () => {});
          stream.on("end", () => {
            seen += 1;
            // The third message: never accepted while the instances live.
            if (hold && seen === 3) {
              heldOne();
              return;
            }
            accepted.push(to);
            callback();
          });
        },
      });
      await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", () => resolve()));
      smtpPort = (smtp.server.address() as AddressInfo).port;
    }, 120_000);

    afterAll(async () => {
      for (const s of servers) await s.stop({ signal: "SIGKILL" }).catch(() => {});
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      await database?.close();
      await drop?.();
    });

    it("writes each digest once, and after a SIGKILL mid-send delivers each exactly once", async () => {
      const [a, b] = await Promise.all([start(), start()]);
      await held;
      // Both instances die while the SMTP server holds a message (not accepted).
      await Promise.all([a!.stop({ signal: "SIGKILL" }), b!.stop({ signal: "SIGKILL" })]);
      expect(accepted).toHaveLength(2);
      const digests = await database.db.selectFrom("digests").select("user_id").execute();
      expect(digests).toHaveLength(people);
      const outbox = await database.db
        .selectFrom("mail_outbox")
        .select(["recipient", "state"])
        .execute();
      expect(outbox).toHaveLength(people);
      expect(outbox.filter((r) => r.state === "sent")).toHaveLength(2);

      // A restart sends the rest, once the dead instance's lease on the send job expires.
      hold = false;
      await start();
      const deadline = Date.now() + 90_000;
      for (;;) {
        const pending = await database.db
          .selectFrom("mail_outbox")
          .select("id")
          .where("state", "<>", "sent")
          .execute();
        if (pending.length === 0) break;
        if (Date.now() > deadline) throw new Error(`${pending.length} digests still unsent`);
        await new Promise((r) => setTimeout(r, 250));
      }
      const expected = Array.from({ length: people }, (_, i) => `teacher${i}@digest.example`);
      expect([...accepted].sort()).toEqual(expected.sort());
      expect(await database.db.selectFrom("digests").select("user_id").execute()).toHaveLength(
        people,
      );
    }, 180_000);
  },
);
