import {
  classInvitationEmail,
  digestEmail,
  type Email,
  guardianConsentEmail,
  guardianConsentGivenEmail,
  rosterInvitationEmail,
  teacherInvitationEmail,
} from "@gradecast/contract/emails";
import type { Locale } from "@gradecast/contract/locale";
import type { Subject } from "@gradecast/contract/subjects";
import { greeted, intlOf, localizedEmail, t } from "./translate.ts";

// The invitation, guardian consent and digest emails in the recipient's language (issue 33,
// decision 0029). English is the contract's own text, letter for letter; other languages are
// formatted from the `emails` catalogue.

const lines = (...parts: string[]) => parts.join("\n");

/** A YYYY-MM-DD day as the language writes it (28/11/2026 in pt-PT). */
function day(locale: Locale, ymd: string): string {
  return intlOf(locale).formatDate(`${ymd}T00:00:00Z`, {
    day: "2-digit",
    month: "2-digit",
    year: "numeric",
    timeZone: "UTC",
  });
}

/** A class's three lines (name and year quoted as data, as in English). */
function classLines(locale: Locale, c: { name: string; subject: Subject; year: string }) {
  return [
    t(locale, "emails.class.name", { name: JSON.stringify(c.name) }),
    t(locale, "emails.class.subject", {
      subject: t(locale, `questionnaire.subject.option.${c.subject}`),
    }),
    t(locale, "emails.class.year", { year: JSON.stringify(c.year) }),
  ];
}

/** To an address an admin (or a roster import) invited as a teacher. */
export const localizedTeacherInvitationEmail = localizedEmail(
  teacherInvitationEmail,
  "emails.greeting",
  "emails.teacherInvitation.subject",
  "emails.teacherInvitation.body",
);

/** A teacher's invitation of one address to one class. */
export function localizedClassInvitationEmail(
  locale: Locale,
  p: Parameters<typeof classInvitationEmail>[0],
): Email {
  if (locale === "en") return classInvitationEmail(p);
  return {
    subject: t(locale, "emails.classInvitation.subject"),
    text: lines(
      t(locale, "emails.hello"),
      "",
      p.schoolName
        ? t(locale, "emails.classInvitation.byTeacherAt", { schoolName: p.schoolName })
        : t(locale, "emails.classInvitation.byTeacher"),
      "",
      ...classLines(locale, { name: p.className, subject: p.subject, year: p.year }),
      "",
      t(
        locale,
        p.hasAccount ? "emails.classInvitation.account" : "emails.classInvitation.register",
        { appUrl: p.appUrl },
      ),
      "",
      t(locale, "emails.unknownSchool"),
    ),
  };
}

/** A roster import's one email to an address with no account, listing its classes. */
export function localizedRosterInvitationEmail(
  locale: Locale,
  p: Parameters<typeof rosterInvitationEmail>[0],
): Email {
  if (locale === "en") return rosterInvitationEmail(p);
  const count = p.classes.length;
  return {
    subject: t(locale, "emails.rosterInvitation.subject", { count }),
    text: lines(
      t(locale, "emails.hello"),
      "",
      p.schoolName
        ? t(locale, "emails.rosterInvitation.bySchoolNamed", { schoolName: p.schoolName, count })
        : t(locale, "emails.rosterInvitation.bySchool", { count }),
      "",
      ...p.classes.flatMap((c) => [...classLines(locale, c), ""]),
      t(locale, "emails.rosterInvitation.register", { appUrl: p.appUrl, count }),
      "",
      t(locale, "emails.unknownSchool"),
    ),
  };
}

/** To the guardian a student named, in the student's language (the guardian has no account). */
export const localizedGuardianConsentEmail = localizedEmail(
  guardianConsentEmail,
  "emails.guardian.greeting",
  "emails.guardianConsent.subject",
  "emails.guardianConsent.body",
);

/** To the guardian once they consented, with the withdrawal link: in the student's language. */
export const localizedGuardianConsentGivenEmail = localizedEmail(
  guardianConsentGivenEmail,
  "emails.guardian.greeting",
  "emails.guardianConsentGiven.subject",
  "emails.guardianConsentGiven.body",
);

/** The notification digest in its recipient's language; days as the language writes them. */
export function localizedDigestEmail(locale: Locale, p: Parameters<typeof digestEmail>[0]): Email {
  if (locale === "en") return digestEmail(p);
  const from = day(locale, p.from);
  const until = day(locale, p.until);
  const span = from === until ? from : t(locale, "emails.digest.span", { from, until });
  const section = (title: string, items: string[]) =>
    items.length === 0 ? [] : ["", title, ...items.map((l) => `- ${l}`)];
  const dueLine = (d: { student: string; className: string; on: string }) =>
    `${d.student} (${d.className}): ${day(locale, d.on)}`;
  return greeted(
    locale,
    p.name,
    t(locale, "emails.digest.subject", { choice: p.choice, span }),
    lines(
      t(locale, "emails.digest.intro", { span }),
      ...section(
        t(locale, "emails.digest.notifications"),
        p.notifications.map((n) =>
          n.reasons.length > 0
            ? t(locale, "emails.digest.reasons", {
                title: n.title,
                reasons: n.reasons.join(", "),
              })
            : n.title,
        ),
      ),
      ...section(t(locale, "emails.digest.followUps"), p.followUps.map(dueLine)),
      ...section(t(locale, "emails.digest.reviews"), p.reviews.map(dueLine)),
      ...section(
        t(locale, "emails.digest.outcomes"),
        p.outcomes.map((o) => `${o.student} (${o.className})`),
      ),
      "",
      t(locale, "emails.digest.footer", { appUrl: p.appUrl, unsubscribeLink: p.unsubscribeLink }),
    ),
  );
}
