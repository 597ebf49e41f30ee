import {
  ageOn,
  type ConsentState,
  type ConsentStatus,
  type ConsentView,
  consentLinkDays,
  consentMessages,
  consentTextOf,
  consentTexts,
  consentTextVersionOf,
  dateOfBirthSchema,
} from "@gradecast/contract/consent";
import { isId } from "@gradecast/contract/ids";
import type { Locale } from "@gradecast/contract/locale";
import { sql } from "kysely";
import { audit, who } from "../audit/audit.ts";
import type { Actor } from "../auth/actor.ts";
import { randomToken, sha256 } from "../auth/tokens.ts";
import {
  type ConsentRow,
  consentByTokenHash,
  insertConsentRequest,
  newestConsent,
  recordConsent,
  recordWithdrawal,
} from "../db/consents.ts";
import { conflict, DomainError, invalid, limited, notFound } from "../domain-errors.ts";
import {
  localizedGuardianConsentEmail,
  localizedGuardianConsentGivenEmail,
} from "../i18n/emails.ts";
import { appUrl, sendMail } from "../mail/send.ts";
import type { Services } from "../services.ts";

// Guardian consent (issue 31 part B; docs/decisions/0022-consent-and-oversight.md). Under
// LEGAL_BASIS=consent a student whose date of birth makes them younger than DIGITAL_CONSENT_AGE
// answers and is predicted only while their guardian's consent stands. The guardian has no
// account: a link emailed to the address the student gave proves that address; its token is
// stored hashed, lives `consentLinkDays` days, and only the student's newest request counts.

/** The least time between two requests of one student (the resend limit). */
export const resendPauseMs = 60_000;

type Who = { id: string; role: string };

/** A student's date of birth as YYYY-MM-DD, or null (not asked, or registered before 0028). */
export async function dateOfBirthOf(services: Services, userId: string): Promise<string | null> {
  const row = await services.db
    .selectFrom("users")
    .select(sql<string | null>`to_char(date_of_birth, 'YYYY-MM-DD')`.as("dob"))
    .where("id", "=", userId)
    .executeTakeFirst();
  return row?.dob ?? null;
}

/** Whether this account needs a guardian's consent at all (now). */
async function needsGuardian(services: Services, user: Who): Promise<boolean> {
  if (services.config.legalBasis !== "consent" || user.role !== "student") return false;
  const dob = await dateOfBirthOf(services, user.id);
  // An account without a date of birth was made before the school chose consent: the school
  // decides about those accounts (the decision record says so); none is blocked here.
  if (dob === null) return false;
  return ageOn(dob, services.now()) < services.config.digitalConsentAge;
}

function stateOf(row: ConsentRow | undefined, now: Date): Exclude<ConsentState, "not_needed"> {
  if (!row) return "needed";
  if (row.withdrawnAt) return "withdrawn";
  if (row.consentedAt) return "given";
  return row.expiresAt > now ? "pending" : "needed";
}

export async function consentStatus(services: Services, user: Who): Promise<ConsentStatus> {
  const base = {
    legalBasis: services.config.legalBasis,
    digitalConsentAge: services.config.digitalConsentAge,
  };
  if (!(await needsGuardian(services, user))) {
    return {
      ...base,
      state: "not_needed",
      guardianEmail: null,
      requestedAt: null,
      consentedAt: null,
      withdrawnAt: null,
    };
  }
  const row = await newestConsent(services.db, user.id);
  return {
    ...base,
    state: stateOf(row, services.now()),
    guardianEmail: row?.guardianEmail ?? null,
    requestedAt: row?.createdAt.toISOString() ?? null,
    consentedAt: row?.consentedAt?.toISOString() ?? null,
    withdrawnAt: row?.withdrawnAt?.toISOString() ?? null,
  };
}

/**
 * The gate of the questionnaire and of predictions: refuses, with its own code, a student who
 * needs a guardian's consent that is not given (or was withdrawn).
 */
export async function requireConsent(services: Services, user: Who): Promise<void> {
  if (!(await needsGuardian(services, user))) return;
  const state = stateOf(await newestConsent(services.db, user.id), services.now());
  if (state === "given") return;
  throw new DomainError(
    "forbidden",
    "guardian_consent_required",
    state === "withdrawn" ? consentMessages.withdrawn : consentMessages.required,
  );
}

/** Checks a date of birth given at registration under consent; YYYY-MM-DD or a 400. */
export function checkDateOfBirth(value: string | undefined): string {
  const parsed = dateOfBirthSchema.safeParse(value);
  if (!parsed.success) {
    const message =
      value === undefined
        ? consentMessages.dateOfBirthNeeded
        : (parsed.error.issues[0]?.message ?? "");
    throw invalid(message, { dateOfBirth: message });
  }
  return parsed.data;
}

export async function requestConsent(
  services: Services,
  actor: Actor,
  guardianEmail: string,
): Promise<ConsentStatus> {
  const { user } = actor;
  if (!(await needsGuardian(services, user))) {
    throw conflict("Your school does not need a guardian's consent for your account.");
  }
  if (guardianEmail === user.email.toLowerCase()) {
    const message = "Give your parent's or guardian's address, not your own.";
    throw invalid(message, { guardianEmail: message });
  }
  const now = services.now();
  const newest = await newestConsent(services.db, user.id);
  if (newest?.consentedAt && !newest.withdrawnAt) {
    throw conflict("Your guardian has already consented.");
  }
  if (newest && now.getTime() - newest.createdAt.getTime() < resendPauseMs) {
    throw limited(
      resendPauseMs - (now.getTime() - newest.createdAt.getTime()),
      consentMessages.resendTooSoon,
    );
  }
  const token = randomToken();
  // The guardian has no account: the student's language, else DEFAULT_LOCALE. The link carries
  // it, so the page opens in the email's language (the guardian can switch there).
  const locale = user.locale ?? services.config.defaultLocale;
  await insertConsentRequest(services.db, {
    studentId: user.id,
    guardianEmail,
    tokenHash: sha256(token),
    now,
    expiresAt: new Date(now.getTime() + consentLinkDays * 86_400_000),
  });
  await audit(services.db, { ...who(actor, user.id), action: "consent.request" });
  await sendMail(
    services,
    guardianEmail,
    localizedGuardianConsentEmail(locale, {
      studentName: user.name,
      link: `${appUrl(services)}/consent?token=${token}&lang=${locale}`,
      days: consentLinkDays,
    }),
  );
  return consentStatus(services, user);
}

const linkInvalid = () => new DomainError("invalid", "invalid_token", consentMessages.linkInvalid);

/** The request a consent link names, if the link still counts. */
async function liveRequest(services: Services, token: string) {
  const row = await consentByTokenHash(services.db, "token_hash", sha256(token));
  if (!row) throw linkInvalid();
  // Only the student's newest request counts: a new link ends the previous one.
  const newest = await newestConsent(services.db, row.studentId);
  if (newest?.id !== row.id) throw linkInvalid();
  if (!row.consentedAt && !row.withdrawnAt && row.expiresAt <= services.now()) throw linkInvalid();
  return row;
}

/**
 * The link's page in `locale`: the text in that language and its version, which the guardian's
 * confirmation sends back; once consent is given, the text they agreed to.
 */
function toView(row: ConsentRow & { studentName: string }, locale: Locale): ConsentView {
  const agreed = row.consentedAt && row.textVersion ? consentTextOf(row.textVersion) : undefined;
  return {
    studentName: row.studentName,
    guardianEmail: row.guardianEmail,
    text: agreed?.text ?? consentTexts[locale],
    textVersion: agreed ? (row.textVersion as string) : consentTextVersionOf(locale),
    state: row.withdrawnAt ? "withdrawn" : row.consentedAt ? "given" : "pending",
  };
}

export async function viewConsent(
  services: Services,
  token: string,
  locale: Locale,
): Promise<ConsentView> {
  return toView(await liveRequest(services, token), locale);
}

/** Records the guardian's consent to the text version they read (one this release has). */
export async function confirmConsent(
  services: Services,
  p: { token: string; textVersion: string; ip: string | null; locale: Locale },
): Promise<ConsentView> {
  const row = await liveRequest(services, p.token);
  // Only a version whose words are known here can say what the guardian agreed to.
  if (!consentTextOf(p.textVersion)) {
    throw new DomainError("invalid", "unknown_text_version", consentMessages.textVersionUnknown);
  }
  if (row.consentedAt || row.withdrawnAt) return toView(row, p.locale);
  const now = services.now();
  const withdrawToken = randomToken();
  const done = await recordConsent(services.db, row.id, {
    textVersion: p.textVersion,
    withdrawTokenHash: sha256(withdrawToken),
    now,
  });
  if (!done) throw linkInvalid();
  // The guardian is no account: the entry names the student and the text version, not the address.
  await audit(services.db, {
    actorId: null,
    actorEmail: null,
    action: "consent.given",
    target: row.studentId,
    details: { textVersion: p.textVersion },
    ip: p.ip,
  });
  const locale = row.studentLocale ?? services.config.defaultLocale;
  await sendMail(
    services,
    row.guardianEmail,
    localizedGuardianConsentGivenEmail(locale, {
      studentName: row.studentName,
      withdrawLink: `${appUrl(services)}/consent/withdraw?token=${withdrawToken}&lang=${locale}`,
    }),
  );
  return toView({ ...row, consentedAt: now, textVersion: p.textVersion }, p.locale);
}

export async function withdrawByGuardian(
  services: Services,
  token: string,
  ip: string | null,
): Promise<void> {
  const row = await consentByTokenHash(services.db, "withdraw_token_hash", sha256(token));
  if (!row) throw linkInvalid();
  if (row.withdrawnAt) return;
  await recordWithdrawal(services.db, row.id, "guardian", services.now());
  await audit(services.db, {
    actorId: null,
    actorEmail: null,
    action: "consent.withdrawn",
    target: row.studentId,
    details: { by: "guardian" },
    ip,
  });
}

/** An admin withdraws a student's consent on the guardian's request (or ends a pending link). */
export async function withdrawByAdmin(
  services: Services,
  actor: Actor,
  studentId: string,
): Promise<ConsentStatus> {
  if (!isId(studentId)) throw notFound();
  const student = await services.db
    .selectFrom("users")
    .select(["id", "role"])
    .where("id", "=", studentId)
    .executeTakeFirst();
  if (!student) throw notFound();
  const newest = await newestConsent(services.db, studentId);
  if (!newest || newest.withdrawnAt) throw conflict("This student has no consent to withdraw.");
  await recordWithdrawal(services.db, newest.id, "admin", services.now());
  await audit(services.db, {
    ...who(actor, studentId),
    action: "consent.withdrawn",
    details: { by: "admin" },
  });
  return consentStatus(services, student);
}
