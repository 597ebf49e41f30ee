import type { Email } from "@gradecast/contract/emails";
import type { Services } from "../services.ts";

/** The address emailed links start with: PUBLIC_URL, else this machine on the configured port. */
export function appUrl(services: Services): string {
  return services.config.publicUrl ?? `http://localhost:${services.config.port}`;
}

/** Sends one email; a mail server that fails is logged, never the caller's error. */
export async function sendMail(services: Services, to: string, email: Email) {
  try {
    await services.mailer.send({ to, ...email });
  } catch (error) {
    services.log.error({ err: error }, "sending mail failed");
  }
}
