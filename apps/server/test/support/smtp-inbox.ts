import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll } from "vitest";

export interface ReceivedMail {
  to: string[];
  raw: string;
}

/**
 * A real SMTP server in this process for the tests of one file (started before them, closed
 * after): `inbox.port` to send to, `inbox.received` for what it accepted, in order.
 */
export function smtpInbox() {
  const received: ReceivedMail[] = [];
  let smtp: SMTPServer | undefined;
  let port = 0;
  beforeAll(async () => {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("end", () => {
          received.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString("utf8"),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    port = (server.server.address() as AddressInfo).port;
    smtp = server;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  });
  return {
    received,
    get port() {
      return port;
    },
  };
}
