// The person-data registry (issue 31, docs/decisions/0021-data-rights.md): every table that holds
// data about a person, in ONE place. What is driven from it:
//   - GET /api/me/export: for each entry and each of its links, the rows naming the caller
//     (all columns but the `secret` ones, or the link's own `export` columns), as JSON and CSV;
//   - the purge after an account deletion: each link's `erase` rule, in the entries' order;
//   - retention: each entry's `category` and `agedBy` column, with the admin's settings;
//   - the privacy notice at /privacy: each entry's title, purpose, who sees it, its fields and
//     how long its category is kept.
// A test reads the database's own catalogue and fails when a table with a person column (a
// foreign key to users(id), or a column named like an email, a name or a person's id) has no
// entry here, or when a column of an entry's table is named nowhere in the entry.
//
// ADDING A TABLE = adding one entry to `personalData` below:
//   1. `table`, `title`, `purpose`, `whoSees`, `category` (a retention category) and, when its
//      rows may be deleted after a time, `agedBy` (the date column the period counts from);
//   2. `links`: each column naming a person: `kind` "id" (a user id), "email" or "name" (a copy
//      of a name kept by a trigger), `role` (whose row it is: the "subject" the data is about, or
//      the "author"/"actor" who made it), `export` ("all", "none" or the columns the person
//      gets), `erase` (see Erasure);
//   3. `fields`: every other column holding something about the person, with what it is (the
//      notice lists them); `secret`: the columns never exported (hashes, keys); `internal`: the
//      rest (ids of other records, counters, flags).
// Then bump privacyNoticeVersion (privacy.ts): the notice changed.

/** Retention categories: an admin sets how long each is kept (GET /api/admin/data-protection). */
export const retentionCategories = [
  "account",
  "sessions",
  "questionnaire",
  "predictions",
  "reports",
  "interventionNotes",
  "records",
  "classes",
  "invitations",
  "auditLog",
  "outbox",
  "jobs",
] as const;
export type RetentionCategory = (typeof retentionCategories)[number];

export interface CategoryInfo {
  label: string;
  /** False: kept as long as the account or the class it belongs to (no period to set). */
  configurable: boolean;
  /** The period until an admin sets one; null: until the person or the record is deleted. */
  defaultDays: number | null;
  /** What the notice says when no period is set. */
  untilText: string;
}

export const categoryInfo: Record<RetentionCategory, CategoryInfo> = {
  account: {
    label: "Accounts",
    configurable: false,
    defaultDays: null,
    untilText: "until the account is deleted",
  },
  sessions: {
    label: "Sign-in sessions and codes",
    configurable: true,
    defaultDays: 90,
    untilText: "until the account is deleted",
  },
  questionnaire: {
    label: "Questionnaire answers",
    configurable: true,
    defaultDays: null,
    untilText: "until the account is deleted",
  },
  predictions: {
    label: "Predictions",
    configurable: true,
    defaultDays: null,
    untilText: "until the account is deleted",
  },
  reports: {
    label: "Teachers' reports",
    configurable: true,
    defaultDays: null,
    untilText: "until the report or the student's account is deleted",
  },
  interventionNotes: {
    label: "Intervention notes",
    configurable: true,
    defaultDays: null,
    untilText: "until the student's account is deleted",
  },
  records: {
    label: "School records (grades, absences)",
    configurable: true,
    defaultDays: null,
    untilText: "until the student's account is deleted",
  },
  classes: {
    label: "Classes and enrolments",
    configurable: false,
    defaultDays: null,
    untilText: "until the class or the account is deleted",
  },
  invitations: {
    label: "Invitations",
    configurable: true,
    defaultDays: null,
    untilText: "until accepted, declined or withdrawn",
  },
  auditLog: {
    label: "Audit log",
    configurable: true,
    defaultDays: null,
    untilText: "kept; a deleted person is replaced by a pseudonym",
  },
  outbox: {
    label: "Outgoing emails",
    configurable: true,
    defaultDays: 30,
    untilText: "until sent",
  },
  jobs: {
    label: "Background jobs",
    configurable: false,
    defaultDays: 7,
    untilText: "7 days after they finish",
  },
};

/**
 * What the purge does with a row naming the deleted person through one link:
 *   "delete": the row goes;
 *   { anonymise }: the row stays with these columns set (null, a text, or "$formerStaff": the
 *     placeholder account "Former staff member" for a column that cannot be null);
 *   "pseudonymise": the audit log: the person's id, email and name become their pseudonym;
 *   "deletedStudentReports": per the school's setting, the row goes or stays anonymised;
 *   "derived": a copy kept by a trigger from another table; it follows that table.
 */
export type Erasure =
  | "delete"
  | { anonymise: Record<string, string | null> }
  | "pseudonymise"
  | "deletedStudentReports"
  | "derived";

export interface PersonLink {
  column: string;
  kind: "id" | "email" | "name";
  /** Whose row this is for the person named: it is about them, or they made it. */
  role: "subject" | "author" | "actor";
  /** What the person named gets in their export: every column but the secret ones, some, none. */
  export: "all" | "none" | readonly string[];
  erase: Erasure;
}

export interface PersonalDataEntry {
  table: string;
  title: string;
  purpose: string;
  whoSees: string;
  category: RetentionCategory;
  /** The date a retention period counts from; absent: not purged by age. */
  agedBy?: string;
  links: readonly PersonLink[];
  /** Columns holding something about the person, with what each is. */
  fields: Readonly<Record<string, string>>;
  /** Columns never exported (hashes, encrypted keys); the notice still names them. */
  secret?: readonly string[];
  /** Other columns: ids of other records, counters, flags. */
  internal?: readonly string[];
}

/** The name anonymised rows give the author who was deleted. */
export const formerStaffName = "Former staff member";
/** The name anonymised reports give the student who was deleted. */
export const deletedStudentName = "Deleted student";

/** A row about the person the column names: they get all of it, and it goes with them. */
function ownRow(column: string, kind: "id" | "email" = "id"): PersonLink {
  return { column, kind, role: "subject", export: "all", erase: "delete" };
}

/**
 * A row the person made or acted on, about something else: they get the `exported` columns, and
 * on erasure the row stays with the column emptied (and the row's copy of their name, when it
 * keeps one, set to `formerStaffName`).
 */
function attributedTo(
  column: string,
  role: "author" | "actor",
  exported: readonly string[],
  nameColumn?: string,
): PersonLink {
  const anonymise = { [column]: null, ...(nameColumn && { [nameColumn]: formerStaffName }) };
  return { column, kind: "id", role, export: exported, erase: { anonymise } };
}

/** A row that goes with the person it names, who gets only the `exported` columns of it. */
function goesWith(
  column: string,
  role: "subject" | "author",
  exported: readonly string[] | "none",
  kind: "id" | "email" = "id",
): PersonLink {
  return { column, kind, role, export: exported, erase: "delete" };
}

/** A copy of a person's name kept by a trigger from another table: never exported. */
function nameCopy(column: string): PersonLink {
  return { column, kind: "name", role: "subject", export: "none", erase: "derived" };
}

/** Authored rows about students: a teacher's export lists them without what they say. */
const authoredReportColumns = ["id", "course", "class_id", "created_at", "updated_at"] as const;

export const personalData: readonly PersonalDataEntry[] = [
  {
    table: "students",
    title: "Questionnaire answers",
    purpose:
      "The answers a student gives to the questionnaire, which the prediction is made from; a question the school marks optional and the student leaves out (\u201cPrefer not to say\u201d) is stored as not answered (empty)",
    whoSees:
      "The student; an admin. Teachers never see them (a student may share the explanation of a prediction)",
    category: "questionnaire",
    agedBy: "created_at",
    links: [ownRow("user_id")],
    fields: {
      school: "the school (from the deployment's settings)",
      sex: "sex",
      age: "age",
      address: "urban or rural home address type",
      famsize: "family size",
      pstatus: "whether the parents live together",
      medu: "mother's education",
      fedu: "father's education",
      mjob: "mother's job",
      fjob: "father's job",
      reason: "reason for choosing the school",
      guardian: "guardian",
      traveltime: "travel time to school",
      studytime: "weekly study time",
      failures: "past class failures",
      schoolsup: "extra educational support",
      famsup: "family educational support",
      paid: "extra paid classes",
      activities: "extra-curricular activities",
      nursery: "attended nursery school",
      higher: "wants higher education",
      internet: "internet access at home",
      romantic: "in a romantic relationship",
      famrel: "quality of family relationships",
      freetime: "free time after school",
      goout: "going out with friends",
      health: "current health status",
      absences: "number of absences",
      g1: "first-period grade",
      g2: "second-period grade",
      subject: "subject (mathematics or Portuguese)",
      created_at: "when the answers were saved",
      notice_version: "the version of the privacy notice shown when they were saved",
    },
    internal: ["id"],
  },
  {
    table: "predictions",
    title: "Predictions",
    purpose: "The predicted final score, its interval and the inputs and model it came from",
    whoSees:
      "The student; the teachers of the student's classes (score and risk, not the private answers); admins",
    category: "predictions",
    agedBy: "created_at",
    links: [ownRow("user_id")],
    fields: {
      inputs: "the answers and grades the prediction used",
      score: "predicted final score",
      raw_score: "the model's raw output",
      interval_low: "interval, low end",
      interval_high: "interval, high end",
      extrapolation: "whether the answers lay outside what the model was trained on",
      model_version: "model version",
      model_setup: "which of the model's setups answered",
      score_if_sits: "predicted score if the student sits the final exam",
      no_final_score_risk: "risk of not sitting the final exam",
      created_at: "when it was made",
      sources: "which inputs came from the school record",
      own_values: "the student's own grades and absences as typed",
      record_version: "version of the school record used",
      made_by: "made by the student or by the school",
    },
    internal: ["id", "class_id"],
  },
  {
    table: "student_reports",
    title: "Teachers' reports",
    purpose:
      "What a teacher reports about a student's marks, attendance, assignments and behaviour",
    whoSees:
      "The author, the teachers of the student's class, admins, and the student the report names",
    category: "reports",
    agedBy: "created_at",
    links: [
      {
        column: "student_id",
        kind: "id",
        role: "subject",
        export: "all",
        erase: "deletedStudentReports",
      },
      {
        column: "author_id",
        kind: "id",
        role: "author",
        export: authoredReportColumns,
        erase: { anonymise: { author_id: "$formerStaff" } },
      },
    ],
    fields: {
      student_name: "the student's name as written",
      student_name_folded: "the same name in lower case without accents, for searching",
      course: "course",
      marks: "marks",
      attendance: "attendance",
      assignments: "assignments handed in",
      behavior: "behaviour",
      feedback: "the teacher's feedback",
      created_at: "when it was written",
      updated_at: "when it was last changed",
    },
    internal: ["id", "class_id"],
  },
  {
    table: "intervention_notes",
    title: "Intervention notes",
    purpose: "What a class's teacher did for a student on the risk list, and when to follow up",
    whoSees: "The teachers of the class; admins",
    category: "interventionNotes",
    agedBy: "created_at",
    links: [
      ownRow("student_id"),
      attributedTo(
        "author_id",
        "author",
        ["id", "class_id", "done_on", "created_at"],
        "author_name",
      ),
    ],
    fields: {
      author_name: "the author's name",
      action: "what was done",
      done_on: "when",
      follow_up_on: "when to follow up",
      created_at: "when it was written",
    },
    internal: ["id", "class_id"],
  },
  {
    table: "alert_states",
    title: "Risk flags",
    purpose: "Whether a student's risk flag is up in a class, so teachers hear when it changes",
    whoSees: "The teachers of the class",
    category: "predictions",
    links: [ownRow("student_id")],
    fields: {
      at_risk: "whether the flag is up",
      pending: "a crossing waiting for the next prediction to confirm it",
      changed_at: "when it last changed",
    },
    internal: ["class_id", "prediction_id", "record_version"],
  },
  {
    table: "notifications",
    title: "Notifications",
    purpose: "Telling a person in the app what changed: a risk flag, a report, a record value",
    whoSees: "The person notified",
    category: "outbox",
    agedBy: "created_at",
    links: [
      ownRow("recipient_id"),
      goesWith("student_id", "subject", ["id", "kind", "class_id", "created_at"]),
    ],
    fields: {
      kind: "what the notification is about",
      payload: "what it says (what the risk list shows, never a private answer)",
      created_at: "when",
      read_at: "when it was read",
    },
    internal: ["id", "class_id"],
  },
  {
    table: "notification_settings",
    title: "Email digest choice",
    purpose: "How often a person gets the email digest (off, daily, weekly)",
    whoSees: "The person",
    category: "account",
    links: [ownRow("user_id")],
    fields: { digest: "the choice", changed_at: "when it changed" },
    secret: ["unsubscribe_key"],
  },
  {
    table: "digests",
    title: "Digests sent",
    purpose: "Sending each email digest once per person and period",
    whoSees: "Nobody but the server",
    category: "outbox",
    agedBy: "created_at",
    links: [ownRow("user_id")],
    fields: { period: "the period", items: "how many items it listed", created_at: "when" },
  },
  {
    table: "mail_outbox",
    title: "Email outbox",
    purpose: "Email waiting to be sent, kept until sent so none is lost or sent twice",
    whoSees: "Nobody but the server",
    category: "outbox",
    agedBy: "created_at",
    links: [ownRow("recipient_id"), ownRow("recipient", "email")],
    fields: {
      subject: "the email's subject",
      body: "the email's text",
      kind: "which email",
      state: "sent or waiting",
      created_at: "when it was written",
      sent_at: "when it was sent",
      error: "why sending failed",
    },
    internal: ["id", "dedupe_key", "attempts"],
  },
  {
    table: "flag_feedback",
    title: "Teachers' judgement of risk flags",
    purpose: "Whether a teacher found a student's risk flag useful, to judge the model",
    whoSees: "The teacher; the evaluation page counts judgements without names",
    category: "predictions",
    agedBy: "updated_at",
    links: [
      ownRow("student_id"),
      goesWith("teacher_id", "author", ["prediction_id", "class_id", "judgement", "updated_at"]),
    ],
    fields: {
      judgement: "acknowledged, not useful or incorrectly flagged",
      reason: "the teacher's reason",
      model_version: "the model that raised the flag",
      updated_at: "when",
    },
    internal: ["prediction_id", "class_id"],
  },
  {
    table: "intervention_plans",
    title: "Intervention plans",
    purpose: "What a class's teachers plan for a student at risk, who owns it and when to review",
    whoSees: "The teachers of the class",
    category: "interventionNotes",
    agedBy: "created_at",
    links: [
      ownRow("student_id"),
      attributedTo("owner_id", "actor", ["id", "class_id", "review_on", "created_at"]),
      attributedTo("created_by", "author", ["id", "class_id", "created_at"]),
    ],
    fields: {
      tier: "the tier of support (1 to 3)",
      goal: "the goal",
      review_on: "when to review it",
      created_at: "when it was started",
      updated_at: "when it last changed",
      closed_at: "when it closed",
      outcome: "how it ended",
    },
    internal: ["id", "class_id"],
  },
  {
    table: "guardian_consents",
    title: "Guardians' consent",
    purpose:
      "A guardian's consent for a student under the age of digital consent, when the school works on consent, and its withdrawal",
    whoSees: "The student; the guardian, through the emailed link",
    category: "account",
    links: [ownRow("student_id"), ownRow("guardian_email", "email")],
    fields: {
      text_version: "the version of the consent text the guardian agreed to",
      created_at: "when the student asked",
      expires_at: "when the link expires",
      consented_at: "when the guardian consented",
      withdrawn_at: "when consent was withdrawn",
      withdrawn_by: "who withdrew it (the guardian or an admin)",
    },
    secret: ["token_hash", "withdraw_token_hash"],
    internal: ["id"],
  },
  {
    table: "prediction_contests",
    title: "Contested predictions",
    purpose: "A student's reason why a prediction is wrong, for their class teachers to read",
    whoSees: "The student; the teachers of their classes",
    category: "predictions",
    agedBy: "created_at",
    links: [ownRow("student_id")],
    fields: { reason: "the student's reason", created_at: "when" },
    internal: ["id", "prediction_id"],
  },
  {
    table: "oneroster_users",
    title: "People in the school's roster",
    purpose:
      "Finding or inviting a person the school's information system lists (OneRoster import), by its id for them",
    whoSees: "Admins, through the import",
    category: "classes",
    links: [ownRow("email", "email")],
    fields: {
      name: "the name the school's system gives",
      sourced_id: "the school system's id for the person",
      updated_at: "when an import last listed them",
    },
  },
  {
    table: "record_entries",
    title: "School record history",
    purpose: "Every value the school record of a student held (grades, absences), with who set it",
    whoSees: "The teachers of the class; admins; the student sees the record's current values",
    category: "records",
    agedBy: "set_at",
    links: [
      ownRow("student_id"),
      attributedTo("set_by", "author", ["id", "class_id", "field", "set_at", "via"], "set_by_name"),
    ],
    fields: {
      field: "which value (G1, G2, absences, failures, G3, sat the exam)",
      value: "the value",
      set_by_name: "name of the person who set it",
      set_at: "when",
      via: "typed, imported or demo data",
    },
    internal: ["id", "class_id"],
  },
  {
    table: "school_records",
    title: "School records",
    purpose: "The current grades, absences and final outcome of a student in a class",
    whoSees: "The student; the teachers of the class; admins",
    category: "records",
    agedBy: "updated_at",
    links: [ownRow("student_id")],
    fields: {
      g1: "first-period grade",
      g2: "second-period grade",
      absences: "absences",
      failures: "past failures",
      g3: "final grade",
      sat: "whether the student sat the final exam",
      updated_at: "when it last changed",
      outcome_at: "when the outcome was recorded",
    },
    internal: ["class_id", "inputs_version"],
  },
  {
    table: "explanation_shares",
    title: "Explanation sharing",
    purpose: "A student's choice to share the full explanation of their prediction with teachers",
    whoSees: "The student; their teachers see the shared explanation",
    category: "predictions",
    links: [ownRow("student_id")],
    fields: { shared: "shared or not", changed_at: "when it changed" },
  },
  {
    table: "explanation_share_teachers",
    title: "Teachers an explanation is shared with",
    purpose: "The teachers a student shared the full explanation with",
    whoSees: "The student; the teacher named",
    category: "predictions",
    links: [ownRow("student_id"), goesWith("teacher_id", "subject", ["shared_at"])],
    fields: { shared_at: "when" },
  },
  {
    table: "enrolments",
    title: "Enrolments",
    purpose: "Which classes a student is enrolled in",
    whoSees: "The student; the class's teachers; admins",
    category: "classes",
    links: [ownRow("student_id")],
    fields: { enrolled_at: "when" },
    internal: ["class_id"],
  },
  {
    table: "class_teachers",
    title: "Class teachers",
    purpose: "Which classes a teacher teaches",
    whoSees: "The class's teachers and students; admins",
    category: "classes",
    links: [ownRow("teacher_id")],
    fields: { added_at: "when" },
    internal: ["class_id"],
  },
  {
    table: "classes",
    title: "Classes",
    purpose: "A class's name, subject and year, and who created it",
    whoSees: "The class's teachers and students; admins",
    category: "classes",
    links: [attributedTo("created_by", "author", ["id", "name", "subject", "year", "created_at"])],
    fields: {
      name: "the class's name (not a person's)",
      subject: "subject",
      year: "school year",
      created_at: "when it was created",
      updated_at: "when it last changed",
    },
    secret: ["join_code"],
    internal: ["id"],
  },
  {
    table: "class_invitations",
    title: "Class invitations",
    purpose: "An invitation to join a class, from an imported class list",
    whoSees: "The person invited; the class's teachers; admins",
    category: "invitations",
    agedBy: "created_at",
    links: [
      ownRow("email", "email"),
      attributedTo("invited_by", "author", ["class_id", "created_at"]),
    ],
    fields: {
      name: "the invited person's name",
      created_at: "when",
      needs_consent: "whether the invited person must accept",
    },
    internal: ["class_id"],
  },
  {
    table: "teacher_invitations",
    title: "Teacher invitations",
    purpose: "An admin's invitation to create a teacher account",
    whoSees: "Admins",
    category: "invitations",
    agedBy: "created_at",
    links: [ownRow("email", "email"), attributedTo("invited_by", "author", ["created_at"])],
    fields: { name: "the invited person's name", created_at: "when" },
  },
  {
    table: "roster_email_counts",
    title: "Invitation email counts",
    purpose: "How many invitation emails a person's class-list imports sent each day (a limit)",
    whoSees: "Nobody reads it; it caps the emails sent",
    category: "invitations",
    agedBy: "day",
    links: [ownRow("sender_id")],
    fields: { day: "the day", sent: "emails sent" },
  },
  {
    table: "sessions",
    title: "Sign-in sessions",
    purpose: "Keeping a person signed in, and showing them where they are signed in",
    whoSees: "The person (Account security page)",
    category: "sessions",
    agedBy: "expires_at",
    links: [ownRow("user_id")],
    fields: {
      created_at: "when the session was renewed",
      expires_at: "when it expires",
      used_at: "when it was last renewed",
      revoked_at: "when it was ended",
      signed_in_at: "when the person signed in",
      ip: "the network address signed in from",
      user_agent: "the browser signed in with",
      reauthenticated_at: "when the password was last confirmed",
      sign_in_method: "how the person signed in (a password, or the school's provider)",
      provider_mfa: "whether the school's provider said it checked a second factor",
    },
    secret: ["token_hash"],
    internal: ["id", "family_id"],
  },
  {
    table: "user_identities",
    title: "Accounts at the school's identity provider",
    purpose: "Signing a person in with the school's own account (OpenID Connect)",
    whoSees: "Nobody but the server",
    category: "account",
    links: [ownRow("user_id"), ownRow("email", "email")],
    fields: {
      issuer: "the provider",
      subject: "the person's identifier at the provider",
      created_at: "when the account was first signed in through the provider",
      last_sign_in_at: "when it was last signed in through it",
    },
    internal: ["id"],
  },
  {
    table: "email_codes",
    title: "Email verification codes",
    purpose: "Proving a person owns their email address",
    whoSees: "Nobody: the code is stored as a hash",
    category: "sessions",
    agedBy: "expires_at",
    links: [ownRow("user_id"), goesWith("email", "subject", "none", "email")],
    fields: {
      attempts: "wrong codes typed",
      created_at: "when",
      expires_at: "when it expires",
      consumed_at: "when it was used",
    },
    secret: ["code_hash"],
    internal: ["id"],
  },
  {
    table: "password_resets",
    title: "Password-reset links",
    purpose: "Letting a person set a new password",
    whoSees: "Nobody: the link is stored as a hash",
    category: "sessions",
    agedBy: "expires_at",
    links: [ownRow("user_id"), goesWith("email", "subject", "none", "email")],
    fields: { created_at: "when", expires_at: "when it expires", used_at: "when it was used" },
    secret: ["token_hash"],
    internal: ["id"],
  },
  {
    table: "mfa_recovery_codes",
    title: "Two-step sign-in recovery codes",
    purpose: "Signing in when the authenticator app is lost",
    whoSees: "Nobody: the codes are stored as hashes",
    category: "account",
    links: [ownRow("user_id")],
    fields: { used_at: "when a code was used" },
    secret: ["code_hash", "code_id"],
    internal: ["id"],
  },
  {
    table: "account_deletions",
    title: "Account deletion requests",
    purpose: "A deletion waiting for its grace period to end",
    whoSees: "The person; admins",
    category: "account",
    links: [ownRow("user_id"), attributedTo("requested_by", "actor", ["requested_at"])],
    fields: {
      requested_at: "when it was asked for",
      due_at: "when the data will be removed",
      via: "asked by the person or by an admin",
      reason: "why an admin asked for it",
    },
  },
  {
    table: "model_versions",
    title: "Model versions",
    purpose: "Which admin trained and which promoted each version of the model (issue 30)",
    whoSees: "Admins",
    category: "account",
    links: [
      attributedTo("created_by", "actor", ["id", "created_at"]),
      attributedTo("promoted_by", "actor", ["id", "promoted_at"]),
    ],
    fields: { created_at: "when it was trained", promoted_at: "when it was put in use" },
    internal: ["id", "artifact", "state", "gate_report", "weights", "outcomes", "job_id"],
  },
  {
    table: "retention_settings",
    title: "Retention settings",
    purpose: "How long each kind of data is kept, and which admin last changed it",
    whoSees: "Admins",
    category: "account",
    links: [attributedTo("updated_by", "actor", ["category", "updated_at"])],
    fields: { updated_at: "when it changed" },
    internal: [
      "category",
      "keep_days",
      "auto_purge",
      "checked_at",
      "due_count",
      "purged_at",
      "purged_count",
    ],
  },
  {
    table: "privacy_settings",
    title: "Privacy settings",
    purpose: "What happens to reports about a deleted student, and which admin last changed it",
    whoSees: "Admins",
    category: "account",
    links: [attributedTo("updated_by", "actor", ["updated_at"])],
    fields: { updated_at: "when it changed" },
    internal: ["id", "deleted_student_reports"],
  },
  {
    table: "jobs",
    title: "Background jobs",
    purpose: "Work run in the background (recomputing predictions, purges), and who asked for it",
    whoSees: "The person who asked; admins",
    category: "jobs",
    links: [
      attributedTo("created_by", "actor", ["id", "kind", "state", "created_at", "finished_at"]),
    ],
    fields: { created_at: "when it was asked for" },
    internal: [
      "id",
      "kind",
      "key",
      "payload",
      "state",
      "progress_done",
      "progress_total",
      "attempts",
      "run_after",
      "locked_by",
      "locked_until",
      "started_at",
      "finished_at",
      "error",
    ],
  },
  {
    table: "analytics_latest_report",
    title: "Analytics: latest report per student",
    purpose: "A copy of each student's latest report per course, for the analytics charts",
    whoSees: "Staff, through the analytics report",
    category: "reports",
    links: [nameCopy("student_name")],
    fields: {
      student_key: "the student's name in lower case",
      course_key: "the course in lower case",
      course: "course",
      marks: "marks",
      attendance: "attendance",
      created_at: "when the report was written",
    },
    internal: ["report_id"],
  },
  {
    table: "analytics_report_rollup",
    title: "Analytics: totals",
    purpose: "Sums of marks and attendance per course, behaviour and student name (the charts)",
    whoSees: "Staff, through the analytics report",
    category: "reports",
    links: [nameCopy("key")],
    fields: {},
    internal: ["dim", "n", "sum_x", "sum_y", "sum_xx", "sum_xy", "sum_yy"],
  },
  {
    table: "audit_log",
    title: "Audit log",
    purpose: "Who did what to which record, for security and accountability",
    whoSees: "Admins",
    category: "auditLog",
    agedBy: "at",
    links: [
      // What the person did: when, what and from where, not on whom (that may be a student).
      {
        column: "actor_id",
        kind: "id",
        role: "actor",
        export: ["id", "at", "action", "ip"],
        erase: "pseudonymise",
      },
      {
        column: "actor_email",
        kind: "email",
        role: "actor",
        export: "none",
        erase: "pseudonymise",
      },
      // What was done to the person's account or records: not the staff member's address.
      {
        column: "target",
        kind: "id",
        role: "subject",
        export: ["id", "at", "action", "target", "details"],
        erase: "pseudonymise",
      },
    ],
    fields: {
      at: "when",
      action: "what was done",
      details: "details of the change (never a password or code)",
      ip: "the network address it came from",
    },
    internal: ["id"],
  },
  // Last: the other entries name the account, and the purge removes it after them.
  {
    table: "users",
    title: "Accounts",
    purpose: "Signing in, and naming a person to the people they work with",
    whoSees: "The person; admins; teachers see the names and emails of their classes' students",
    category: "account",
    links: [ownRow("id")],
    fields: {
      name: "name",
      email: "email address",
      role: "student, teacher or admin",
      pending_role: "a teacher sign-up waiting for approval",
      email_verified: "whether the address is verified",
      disabled: "whether an admin disabled the account",
      created_at: "when it was created",
      updated_at: "when it last changed",
      mfa_enabled_at: "when two-step sign-in was turned on",
      date_of_birth: "a student's date of birth (asked only when the school works on consent)",
      notice_version: "the version of the privacy notice shown at registration",
      locale: "the language chosen for the screens and emails",
    },
    secret: ["password_hash", "mfa_secret", "mfa_pending_secret", "mfa_last_step"],
  },
];

/** The entry of a table, for tests and the server. */
export function entryOf(table: string): PersonalDataEntry | undefined {
  return personalData.find((entry) => entry.table === table);
}

/** Every column an entry names (links, fields, secret, internal). */
export function columnsOf(entry: PersonalDataEntry): string[] {
  return [
    ...new Set([
      ...entry.links.map((l) => l.column),
      ...Object.keys(entry.fields),
      ...(entry.secret ?? []),
      ...(entry.internal ?? []),
    ]),
  ];
}
