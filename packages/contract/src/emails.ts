import { type Subject, subjectLabels } from "./subjects.ts";

// Every email the server sends, word for word: the server fills in the blanks, the texts live
// here with the rest of what a user reads.
export interface Email {
  subject: string;
  text: string;
}

/** An email to `name`: the greeting, a blank line, then the body, a line each. */
const email = (subject: string, name: string, ...body: string[]): Email => ({
  subject,
  text: [`Hello ${name},`, "", ...body].join("\n"),
});

export function verificationEmail(p: {
  name: string;
  code: string;
  appUrl: string;
  minutes: number;
}): Email {
  return email(
    `Your Gradecast verification code: ${p.code}`,
    p.name,
    `Your Gradecast verification code is ${p.code}.`,
    "",
    `Enter it on the Verify page (${p.appUrl}/Verify). It expires in ${p.minutes} minutes.`,
    "If you did not create a Gradecast account, ignore this email.",
  );
}

export function passwordResetEmail(p: { name: string; link: string; minutes: number }): Email {
  return email(
    "Reset your Gradecast password",
    p.name,
    "Someone (hopefully you) asked to reset the password of your Gradecast account.",
    "Open this link to choose a new password:",
    "",
    p.link,
    "",
    `The link works once and expires in ${p.minutes} minutes.`,
    "If you did not ask for it, ignore this email: your password stays the same.",
  );
}

export function teacherInvitationEmail(p: {
  name: string;
  invitedBy: string;
  appUrl: string;
}): Email {
  return email(
    "You are invited to Gradecast as a teacher",
    p.name,
    `${p.invitedBy} has invited you to Gradecast as a teacher.`,
    "",
    `Create your account with this email address at ${p.appUrl}/register (choose Teacher), then verify`,
    "the address with the code we email you: your account then becomes a teacher's.",
    "",
    "If you did not expect this, ignore this email.",
  );
}

/**
 * A roster invitation (issue 26): the school's text only. Nothing a teacher typed is in it but
 * the class's name and year, each quoted as data; not the name on the roster line, nor the
 * teacher's own name. An address with an account is asked to accept or decline in the app; a new
 * address to register (it is then in the class once its address is verified).
 */
export function classInvitationEmail(p: {
  className: string;
  subject: Subject;
  year: string;
  appUrl: string;
  schoolName: string | undefined;
  hasAccount: boolean;
}): Email {
  const where = p.schoolName ? `A teacher at ${p.schoolName}` : "A teacher";
  const steps = p.hasAccount
    ? [
        `Log in at ${p.appUrl}/login and open your Student Dashboard: the invitation is listed there,`,
        "with Accept and Decline. You join the class only if you accept, and you can leave it later.",
        "Once you are in the class, its teachers see your newest prediction.",
      ]
    : [
        `Create your student account with this email address at ${p.appUrl}/register and verify the`,
        "email address: you will then be in the class. You can leave it later from your Student Dashboard.",
      ];
  return {
    subject: "A class invitation on Gradecast",
    text: [
      "Hello,",
      "",
      `${where} has invited this email address to a class on Gradecast:`,
      "",
      `  Class: ${JSON.stringify(p.className)}`,
      `  Subject: ${subjectLabels[p.subject]}`,
      `  School year: ${JSON.stringify(p.year)}`,
      "",
      ...steps,
      "",
      "If you do not know this school, ignore this email.",
    ].join("\n"),
  };
}

/**
 * One email to an address with no account that a roster import invited to one or more classes
 * (issue 34, decision 0025): every class listed, one registration joins them all.
 */
export function rosterInvitationEmail(p: {
  classes: { name: string; subject: Subject; year: string }[];
  appUrl: string;
  schoolName: string | undefined;
}): Email {
  const where = p.schoolName ? `Your school, ${p.schoolName},` : "Your school";
  const one = p.classes.length === 1;
  return {
    subject: one ? "A class invitation on Gradecast" : "Class invitations on Gradecast",
    text: [
      "Hello,",
      "",
      `${where} has invited this email address to ${one ? "a class" : `${p.classes.length} classes`} on Gradecast:`,
      "",
      ...p.classes.flatMap((c) => [
        `  Class: ${JSON.stringify(c.name)}`,
        `  Subject: ${subjectLabels[c.subject]}`,
        `  School year: ${JSON.stringify(c.year)}`,
        "",
      ]),
      `Create your student account with this email address at ${p.appUrl}/register and verify the`,
      `email address: you will then be in ${one ? "the class" : "these classes"}. You can leave ${one ? "it" : "a class"} later from your Student Dashboard.`,
      "",
      "If you do not know this school, ignore this email.",
    ].join("\n"),
  };
}

/** To the old address when an account's email address changes (issue 18). */
export function emailChangedEmail(p: { name: string; newEmail: string; appUrl: string }): Email {
  return email(
    "Your Gradecast email address was changed",
    p.name,
    `The email address of your Gradecast account was changed to ${p.newEmail}.`,
    "",
    "If you did not do this, someone else may be using your account: reset your password",
    `(${p.appUrl}/forgot-password) or contact your school's Gradecast administrator.`,
  );
}

/** To each active admin when a teacher's sign-up waits for approval (issue 28). */
export function teacherRequestEmail(p: {
  name: string;
  teacherName: string;
  teacherEmail: string;
  appUrl: string;
}): Email {
  return email(
    `${p.teacherName} asks to be a teacher on Gradecast`,
    p.name,
    `${p.teacherName} (${p.teacherEmail}) signed up as a teacher and has verified the address.`,
    "Until an admin approves, the account is a student's.",
    "",
    `Approve or refuse the request on the Users page (${p.appUrl}/admin/users, "Pending teachers only").`,
  );
}

/** To the teacher when an admin approves their sign-up (issue 28). */
export function teacherApprovedEmail(p: { name: string; appUrl: string }): Email {
  return email(
    "Your Gradecast teacher account is approved",
    p.name,
    "An admin has approved your teacher account on Gradecast.",
    `Log in (${p.appUrl}/login) to create your classes and file reports.`,
  );
}

/** To the person whose teacher sign-up an admin refused (issue 28). */
export function teacherRefusedEmail(p: { name: string; appUrl: string }): Email {
  return email(
    "Your Gradecast teacher request was not approved",
    p.name,
    "An admin has refused your request for a teacher account on Gradecast.",
    `Your account stays a student's (${p.appUrl}/login). If you think this is a mistake, ask your school's Gradecast administrator.`,
  );
}

/**
 * The email digest (issue 32): the period's notifications, the follow-ups and plan reviews that
 * fall due, and outcomes newly recorded. It says only what the risk list shows (school-record
 * reasons by name, never another answer), and ends with the one-click unsubscribe link.
 */
export function digestEmail(p: {
  name: string;
  choice: "daily" | "weekly";
  from: string;
  until: string;
  notifications: { title: string; reasons: string[] }[];
  followUps: { student: string; className: string; on: string }[];
  reviews: { student: string; className: string; on: string }[];
  outcomes: { student: string; className: string }[];
  appUrl: string;
  unsubscribeLink: string;
}): Email {
  const span = p.from === p.until ? p.from : `${p.from} to ${p.until}`;
  const section = (title: string, lines: string[]) =>
    lines.length === 0 ? [] : ["", `${title}:`, ...lines.map((l) => `- ${l}`)];
  return email(
    `Your Gradecast ${p.choice} digest (${span})`,
    p.name,
    `What happened on Gradecast (${span}):`,
    ...section(
      "Notifications",
      p.notifications.map((n) =>
        n.reasons.length > 0 ? `${n.title} (reasons: ${n.reasons.join(", ")})` : n.title,
      ),
    ),
    ...section(
      "Follow-ups of intervention notes falling due",
      p.followUps.map((f) => `${f.student} (${f.className}): ${f.on}`),
    ),
    ...section(
      "Intervention plans to review",
      p.reviews.map((r) => `${r.student} (${r.className}): ${r.on}`),
    ),
    ...section(
      "Outcomes newly recorded",
      p.outcomes.map((o) => `${o.student} (${o.className})`),
    ),
    "",
    `Open Gradecast: ${p.appUrl}/notifications`,
    "",
    `Stop these emails with one click: ${p.unsubscribeLink}`,
    "Or choose daily, weekly or none on your Profile page.",
  );
}

export function guardianConsentEmail(p: {
  studentName: string;
  link: string;
  days: number;
}): Email {
  return email(
    `${p.studentName} asks for your consent on Gradecast`,
    "parent or guardian",
    `${p.studentName} gave this address as their parent's or guardian's. Their school uses`,
    "Gradecast to estimate final grades from a short questionnaire, and needs your consent",
    "before a student of their age answers it.",
    "",
    "Read what you consent to, and confirm if you agree, at this link:",
    "",
    p.link,
    "",
    `The link expires in ${p.days} days. If you do not know ${p.studentName}, ignore this email.`,
  );
}

export function guardianConsentGivenEmail(p: { studentName: string; withdrawLink: string }): Email {
  return email(
    `You consented for ${p.studentName} on Gradecast`,
    "parent or guardian",
    `Thank you: ${p.studentName} may now answer the questionnaire.`,
    "",
    "You can withdraw your consent at any time at this link (keep this email):",
    "",
    p.withdrawLink,
    "",
    "Withdrawing stops new estimates and hides existing ones from teachers. You can also ask the school.",
  );
}
