import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { FastifyBaseLogger } from "fastify";
import nodemailer from "nodemailer";
import type { Config } from "../config.ts";

// Outgoing mail. With SMTP_URL, real SMTP through nodemailer; without it every message is
// rendered by nodemailer's stream transport and written as an .eml file under DATA_DIR/outbox/,
// and one plain console line naming the file, so a fresh install can still read its codes and
// links. The log carries neither the address (personal data) nor the subject or body (they
// may hold a code); the console line names the address so a developer finds their mail.
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** Where the outbox's plain line goes: the console, as the start-up lines do. */
export type Say = (line: string) => void;
const toConsole: Say = (line) => process.stdout.write(`${line}\n`);

/** Whether the log level lets info lines through (pino's level is a name, "warn" by default in tests). */
function atLeastInfo(log: FastifyBaseLogger): boolean {
  return ["trace", "debug", "info"].includes(log.level);
}

export function createMailer(config: Config, log: FastifyBaseLogger, say: Say = toConsole): Mailer {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    return {
      async send(message) {
        const info = await transport.sendMail({ from: config.mailFrom, ...message });
        log.info({ messageId: info.messageId }, "mail sent over SMTP");
      },
      close() {
        transport.close();
      },
    };
  }
  const outbox = path.join(config.dataDir, "outbox");
  const transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: "unix",
  });
  return {
    async send(message) {
      const info = await transport.sendMail({ from: config.mailFrom, ...message });
      await mkdir(outbox, { recursive: true, mode: 0o700 });
      const stamp = new Date().toISOString().replace(/[:.]/g, "-");
      const file = path.join(outbox, `${stamp}-${randomBytes(4).toString("hex")}.eml`);
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      // A person reading the console finds the file; JSON logs (LOG_LEVEL=debug) get the same
      // fact as a record. Quiet levels (warn, error) print nothing.
      if (atLeastInfo(log)) say(`Email to ${message.to} written to ${file}`);
      log.debug({ file }, "mail written to the outbox");
    },
    close() {},
  };
}
