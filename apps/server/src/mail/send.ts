import type { Email } from "@gradecast/contract/emails";
import type { Locale } from "@gradecast/contract/locale";
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

/** Someone an email greets by name: where it goes and the language they chose (null: none). */
export interface Recipient {
  name: string;
  email: string;
  locale: Locale | null;
}

/**
 * Sends `person` an email greeting them by name, in their language: their own setting, else
 * the language of the request that asked for it, else DEFAULT_LOCALE.
 */
export function mailPerson<P extends { name: string }>(
  services: Services,
  person: Recipient,
  email: (locale: Locale, values: P) => Email,
  values: Omit<P, "name">,
  requestLocale?: Locale,
): Promise<void> {
  const locale = person.locale ?? requestLocale ?? services.config.defaultLocale;
  return sendMail(services, person.email, email(locale, { ...values, name: person.name } as P));
}
