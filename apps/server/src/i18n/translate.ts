import { createIntl, type IntlShape } from "@formatjs/intl";
import {
  type Email,
  emailChangedEmail,
  passwordResetEmail,
  teacherApprovedEmail,
  teacherRefusedEmail,
  teacherRequestEmail,
  verificationEmail,
} from "@gradecast/contract/emails";
import { type Catalogue, loadAllCatalogues } from "@gradecast/contract/i18n";
import type { Locale } from "@gradecast/contract/locale";

// The server's text in every language (issue 33): the shared ICU catalogues of the contract,
// loaded once, formatted by FormatJS with the platform's Intl (CLDR plurals, numbers, dates).

const catalogues: Record<Locale, Catalogue> = await loadAllCatalogues();

const intls = new Map<Locale, IntlShape>();

/** The formatter of one language (made once). */
export function intlOf(locale: Locale): IntlShape {
  let intl = intls.get(locale);
  if (!intl) {
    intl = createIntl({
      locale,
      defaultLocale: "en",
      messages: catalogues[locale],
      // A key missing in a language falls back to English silently; the catalogue test finds it.
      onError: () => {},
    });
    intls.set(locale, intl);
  }
  return intl;
}

export type Values = Record<string, string | number>;

/** One message of the shared catalogues in `locale`. */
export function t(locale: Locale, id: string, values?: Values): string {
  return intlOf(locale).formatMessage({ id }, values);
}

// Messages built in English before the caller's language was known (a DomainError's message, a
// zod schema's field message) are found again by their English text: exactly, or, for those
// with arguments, by a pattern made from the English message ("Use at most {max} characters.").
interface Pattern {
  id: string;
  names: string[];
  regex: RegExp;
}

const exact = new Map<string, string>();
const patterns: Pattern[] = [];
for (const [id, text] of Object.entries(catalogues.en)) {
  if (!id.startsWith("messages.") && !id.startsWith("fields.")) continue;
  const names: string[] = [];
  const source = text
    .split(/(\{\w+\})/)
    .map((part) => {
      const arg = /^\{(\w+)\}$/.exec(part);
      if (arg?.[1]) {
        names.push(arg[1]);
        return "(.+?)";
      }
      return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("");
  if (names.length === 0) exact.set(text, id);
  else patterns.push({ id, names, regex: new RegExp(`^${source}$`, "s") });
}

/**
 * An English message of the API in `locale`: the same text when it is not in the catalogues
 * (nothing is lost), or when the language is English.
 */
export function translateMessage(message: string, locale: Locale): string {
  if (locale === "en") return message;
  const id = exact.get(message);
  if (id) return t(locale, id);
  for (const pattern of patterns) {
    const match = pattern.regex.exec(message);
    if (!match) continue;
    const values: Values = {};
    pattern.names.forEach((name, i) => {
      values[name] = match[i + 1] ?? "";
    });
    return t(locale, pattern.id, values);
  }
  return message;
}

// CSV headers are written in English in the contract (reportCsvColumns, riskColumns, ...): each
// is found in the csv catalogue by its English text.
const csvHeaders = new Map<string, string>();
for (const [id, text] of Object.entries(catalogues.en)) {
  if (id.startsWith("csv.")) csvHeaders.set(text, id);
}

/** A CSV column's name in `locale` (unchanged when the catalogue does not have it). */
export function csvHeaderText(english: string, locale: Locale): string {
  const id = csvHeaders.get(english);
  return id && locale !== "en" ? t(locale, id) : english;
}

/** The verification email in `locale`: English is the contract's own text, letter for letter. */
export function localizedVerificationEmail(
  locale: Locale,
  p: { name: string; code: string; appUrl: string; minutes: number },
): { subject: string; text: string } {
  if (locale === "en") return verificationEmail(p);
  return {
    subject: t(locale, "emails.verify.subject", { code: p.code }),
    text: [
      t(locale, "emails.greeting", { name: p.name }),
      "",
      t(locale, "emails.verify.code", { code: p.code }),
      "",
      t(locale, "emails.verify.where", { appUrl: p.appUrl, minutes: p.minutes }),
      t(locale, "emails.verify.ignore"),
    ].join("\n"),
  };
}

/** A greeting, a blank line, then the body: the shape of every email of the contract. */
export function greeted(locale: Locale, name: string, subject: string, body: string): Email {
  return { subject, text: [t(locale, "emails.greeting", { name }), "", body].join("\n") };
}

/**
 * An email in a language: English is the contract's `english` text, letter for letter; other
 * languages format the `greeting`, `subject` and `body` messages with the email's own values.
 */
export function localizedEmail<P extends Values>(
  english: (p: P) => Email,
  greeting: string,
  subject: string,
  body: string,
): (locale: Locale, p: P) => Email {
  return (locale, p) => {
    if (locale === "en") return english(p);
    const text = [t(locale, greeting, p), "", t(locale, body, p)].join("\n");
    return { subject: t(locale, subject, p), text };
  };
}

/** The password reset email in `locale` (English: the contract's text). */
export const localizedPasswordResetEmail = localizedEmail(
  passwordResetEmail,
  "emails.greeting",
  "emails.reset.subject",
  "emails.reset.body",
);

/** To the old address when an account's address changes, in `locale`. */
export const localizedEmailChangedEmail = localizedEmail(
  emailChangedEmail,
  "emails.greeting",
  "emails.emailChanged.subject",
  "emails.emailChanged.body",
);

/** To an admin when a teacher's sign-up waits, in the admin's language. */
export const localizedTeacherRequestEmail = localizedEmail(
  teacherRequestEmail,
  "emails.greeting",
  "emails.teacherRequest.subject",
  "emails.teacherRequest.body",
);

/** To the teacher whose sign-up an admin approved, in their language. */
export const localizedTeacherApprovedEmail = localizedEmail(
  teacherApprovedEmail,
  "emails.greeting",
  "emails.teacherApproved.subject",
  "emails.teacherApproved.body",
);

/** To the person whose teacher sign-up an admin refused, in their language. */
export const localizedTeacherRefusedEmail = localizedEmail(
  teacherRefusedEmail,
  "emails.greeting",
  "emails.teacherRefused.subject",
  "emails.teacherRefused.body",
);
