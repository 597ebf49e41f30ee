import type {
  ColumnType,
  Generated,
  GeneratedAlways,
  Insertable,
  Selectable,
  Updateable,
} from "kysely";

// The tables of the database, as Kysely sees them. Every stored secret is a hash.
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json = ColumnType<unknown, string, string>;

export interface UsersTable {
  id: Generated<string>;
  name: string;
  email: string;
  password_hash: string;
  role: "student" | "teacher" | "admin";
  /** A teacher sign-up waiting for an admin when TEACHER_SIGNUP=approval. */
  pending_role: "teacher" | null;
  email_verified: Generated<boolean>;
  disabled: Generated<boolean>;
  created_at: Generated<Timestamp>;
  updated_at: Generated<Timestamp>;
  /** TOTP MFA (migration 0008): secrets encrypted with the data directory's MFA key. */
  mfa_secret: string | null;
  mfa_pending_secret: string | null;
  mfa_enabled_at: Timestamp | null;
  /** The last TOTP step a code was accepted for (bigint, read as a string). */
  mfa_last_step: string | number | null;
  /** Migration 0028: asked at a student's registration under LEGAL_BASIS=consent only. */
  date_of_birth: ColumnType<Date | string | null, string | null | undefined, string | null>;
  /** The privacy notice version shown at registration (null: registered before 0028). */
  notice_version: string | null;
  /** The language chosen on the profile (migration 0033); null follows the browser. */
  locale: "en" | "pt-PT" | null;
}

export interface SessionsTable {
  id: Generated<string>;
  /** Every refresh token of one sign-in shares the family; reuse revokes the family. */
  family_id: string;
  user_id: string;
  token_hash: string;
  created_at: Generated<Timestamp>;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  revoked_at: Timestamp | null;
  /** The sign-in this family started with: the absolute limit counts from it. */
  signed_in_at: Timestamp | null;
  ip: string | null;
  user_agent: string | null;
  /** The last re-authentication in this session (migration 0008). */
  reauthenticated_at: Timestamp | null;
  /** How the session signed in: "password" or "oidc:<provider's name>" (migration 0030). */
  sign_in_method: Generated<string>;
  /** The provider asserted MFA and OIDC_TRUST_AMR_MFA=on: the session's MFA (an admin's). */
  provider_mfa: Generated<boolean>;
}

/** An account's identity at an OpenID provider (migration 0030): found by (issuer, subject). */
export interface UserIdentitiesTable {
  id: Generated<string>;
  user_id: string;
  issuer: string;
  subject: string;
  /** The address the provider gave at the last sign-in. */
  email: string | null;
  created_at: Generated<Timestamp>;
  last_sign_in_at: Generated<Timestamp>;
}

/** A sign-in with the provider started and not finished (ten minutes; taken once). */
export interface OidcLoginsTable {
  state_hash: string;
  browser_hash: string;
  nonce: string;
  code_verifier: string;
  created_at: Generated<Timestamp>;
  expires_at: Timestamp;
}

export interface MfaRecoveryCodesTable {
  id: Generated<string>;
  user_id: string;
  /**
   * argon2id of the code; a SHA-256 (hex) for codes stored before migration 0018, which have
   * no code_id.
   */
  code_hash: string;
  /** The code's first two characters (not secret): the row a typed code is checked against. */
  code_id: string | null;
  used_at: Timestamp | null;
}

export interface EmailCodesTable {
  id: Generated<string>;
  user_id: string;
  code_hash: string;
  /** The address the code was mailed to (null before migration 0017: proves nothing). */
  email: string | null;
  attempts: Generated<number>;
  created_at: Generated<Timestamp>;
  expires_at: Timestamp;
  consumed_at: Timestamp | null;
}

export interface PasswordResetsTable {
  id: Generated<string>;
  user_id: string;
  token_hash: string;
  /** The address the link was mailed to (null before migration 0017: verifies nothing). */
  email: string | null;
  created_at: Generated<Timestamp>;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface StudentReportsTable {
  id: Generated<string>;
  author_id: string;
  student_name: string;
  course: string;
  marks: number;
  attendance: number;
  assignments: number;
  behavior: string;
  feedback: string;
  /** lower(student_name), kept by the database for the name search (migration 0005). */
  student_name_folded: GeneratedAlways<string>;
  created_at: Generated<Timestamp>;
  updated_at: Generated<Timestamp>;
  /** The enrolled student the report is about; null for a free-text name. */
  student_id: string | null;
  /** The class through which the author teaches that student. */
  class_id: string | null;
}

export interface StudentsTable {
  id: Generated<string>;
  user_id: string;
  /** null where MODEL_SCHOOL is not set (issue 28). */
  school: string | null;
  /** Migration 0028: the privacy notice version shown when it was saved. */
  notice_version: string | null;
  /** Migration 0034: null where the student left an optional question out (issue 31). */
  sex: string | null;
  age: number | null;
  address: string | null;
  famsize: string | null;
  pstatus: string | null;
  medu: number | null;
  fedu: number | null;
  mjob: string | null;
  fjob: string | null;
  reason: string | null;
  guardian: string | null;
  traveltime: number | null;
  studytime: number;
  failures: number;
  schoolsup: string;
  famsup: string | null;
  paid: string | null;
  activities: string | null;
  nursery: string | null;
  higher: string;
  internet: string | null;
  romantic: string | null;
  famrel: number | null;
  freetime: number | null;
  goout: number;
  health: number | null;
  absences: number;
  /** null: not known yet (migration 0012) */
  g1: number | null;
  g2: number | null;
  /** "mat" or "por"; null for records saved before it was asked (migration 0012) */
  subject: "mat" | "por" | null;
  created_at: Generated<Timestamp>;
}

export interface PredictionsTable {
  id: Generated<string>;
  user_id: string;
  inputs: Json;
  score: number;
  raw_score: number;
  interval_low: number;
  interval_high: number;
  extrapolation: boolean;
  model_version: string;
  /** Migration 0012; null for predictions stored before it. */
  model_setup: "A" | "B" | "C" | null;
  score_if_sits: number | null;
  no_final_score_risk: number | null;
  created_at: Generated<Timestamp>;
  /** Migration 0024: the class whose record and subject it used (null: no class). */
  class_id: string | null;
  /** The record's inputs it used, as { G1: "school", ... }; null or absent keys: the student's. */
  sources: ColumnType<unknown, string | null | undefined, string | null>;
  /** The student's own G1, G2, absences and failures (the record may have replaced them). */
  own_values: ColumnType<unknown, string | null | undefined, string | null>;
  /** school_records.inputs_version when it was made; null: no record. */
  record_version: number | null;
  made_by: Generated<"student" | "school">;
}

export interface AuditLogTable {
  id: Generated<string>;
  at: Generated<Timestamp>;
  actor_id: string | null;
  actor_email: string | null;
  action: string;
  target: string | null;
  details: Json;
  ip: string | null;
}

export interface ClassesTable {
  id: Generated<string>;
  name: string;
  subject: "mat" | "por";
  year: string;
  /** Eight characters without look-alikes; null while joining is switched off. */
  join_code: string | null;
  created_by: string | null;
  created_at: Generated<Timestamp>;
  updated_at: Generated<Timestamp>;
}

export interface ClassTeachersTable {
  class_id: string;
  teacher_id: string;
  added_at: Generated<Timestamp>;
}

export interface EnrolmentsTable {
  class_id: string;
  student_id: string;
  enrolled_at: Generated<Timestamp>;
}

export interface ClassInvitationsTable {
  class_id: string;
  email: string;
  name: string;
  invited_by: string | null;
  created_at: Generated<Timestamp>;
  /** Migration 0020: true when the address had an account: its owner accepts or declines. */
  needs_consent: Generated<boolean>;
}

export interface TeacherInvitationsTable {
  email: string;
  name: string;
  invited_by: string | null;
  created_at: Generated<Timestamp>;
}

/** Migration 0013: what a class's teacher did for a student on the risk list. */
export interface InterventionNotesTable {
  id: Generated<string>;
  class_id: string;
  student_id: string;
  author_id: string | null;
  author_name: string;
  action: string;
  /** A date (YYYY-MM-DD). */
  done_on: ColumnType<string, string, string>;
  follow_up_on: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Generated<Timestamp>;
}

/** Migration 0013: a student's choice to share their full explanation with their teachers. */
export interface ExplanationSharesTable {
  student_id: string;
  shared: boolean;
  changed_at: Timestamp;
}

/** Migration 0021: the teachers a student shared their full explanation with. */
export interface ExplanationShareTeachersTable {
  student_id: string;
  teacher_id: string;
  shared_at: Timestamp;
}

/** Migration 0022: invitation emails sent by a person's roster imports, per UTC day. */
export interface RosterEmailCountsTable {
  sender_id: string;
  /** A date (YYYY-MM-DD). */
  day: ColumnType<string, string, string>;
  sent: number;
}

/** Migration 0024: every value a school record ever held (a correction is a new row). */
export interface RecordEntriesTable {
  id: Generated<string>;
  class_id: string;
  student_id: string;
  field: "G1" | "G2" | "absences" | "failures" | "G3" | "sat";
  /** null: cleared; for `sat`, 1 sat and 0 did not sit. */
  value: number | null;
  set_by: string | null;
  set_by_name: string;
  set_at: Generated<Timestamp>;
  via: Generated<"grid" | "import" | "seed">;
}

/** Migration 0024: the current values of each student's record in each class. */
export interface SchoolRecordsTable {
  class_id: string;
  student_id: string;
  g1: number | null;
  g2: number | null;
  absences: number | null;
  failures: number | null;
  g3: number | null;
  sat: boolean | null;
  /** Counts changes of G1, G2, absences and failures: predictions made before are stale. */
  inputs_version: Generated<number>;
  updated_at: Generated<Timestamp>;
  /** When the outcome (G3 or "did not sit") was first recorded. */
  outcome_at: Timestamp | null;
}

/** Migration 0025: long work off the request path. */
export interface JobsTable {
  id: Generated<string>;
  kind: string;
  key: Generated<string>;
  payload: ColumnType<unknown, string | undefined, string>;
  state: Generated<"queued" | "running" | "done" | "failed">;
  progress_done: Generated<number>;
  progress_total: number | null;
  attempts: Generated<number>;
  run_after: Generated<Timestamp>;
  locked_by: string | null;
  locked_until: Timestamp | null;
  created_by: string | null;
  created_at: Generated<Timestamp>;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
  error: string | null;
}

/** Migration 0027: an account deletion waiting for its grace period (issue 31). */
export interface AccountDeletionsTable {
  user_id: string;
  requested_by: string | null;
  requested_at: Timestamp;
  due_at: Timestamp;
  via: "self" | "admin";
  reason: string | null;
}

/** Migration 0027: how long each retention category is kept (a row once an admin sets it). */
export interface RetentionSettingsTable {
  category: string;
  /** null: until the person or the record is deleted. */
  keep_days: number | null;
  /** Purge what is due without waiting for an admin to confirm. */
  auto_purge: Generated<boolean>;
  updated_by: string | null;
  updated_at: Timestamp | null;
  /** The daily job's last look: when, and how many rows were due. */
  checked_at: Timestamp | null;
  due_count: number | null;
  purged_at: Timestamp | null;
  purged_count: number | null;
}

/** Migration 0027: one row. */
export interface PrivacySettingsTable {
  id: Generated<boolean>;
  deleted_student_reports: Generated<"delete" | "anonymise">;
  updated_by: string | null;
  updated_at: Timestamp | null;
}

/** Migration 0026: the model's versions, the one in use, candidates and their gate reports. */
export interface ModelVersionsTable {
  /** The artifact's modelVersion. */
  id: string;
  /** null: the shipped artifact (in the package). */
  artifact: ColumnType<unknown, string | null | undefined, string | null>;
  state: "candidate" | "active" | "retired" | "refused";
  gate_report: ColumnType<unknown, string | null | undefined, string | null>;
  weights: ColumnType<unknown, string | null | undefined, string | null>;
  outcomes: Generated<number>;
  job_id: string | null;
  /** Insert may leave it out (now()). */
  created_at: Timestamp;
  created_by: string | null;
  promoted_at: Timestamp | null;
  promoted_by: string | null;
}

/** A timestamp that may be null (and is optional on insert). */
type NullableTimestamp = ColumnType<
  Date | null,
  Date | string | null | undefined,
  Date | string | null
>;

/** Migration 0029: per class and student, whether the risk flag is up (with the hysteresis memory). */
export interface AlertStatesTable {
  class_id: string;
  student_id: string;
  at_risk: Generated<boolean>;
  pending: Generated<boolean>;
  prediction_id: string | null;
  record_version: number | null;
  changed_at: Timestamp;
}

/** Migration 0035: class predictions stored whose alerts are not yet evaluated (one row a batch). */
export interface AlertBacklogTable {
  id: string;
  prediction_ids: ColumnType<string[], string, string>;
  created_at: Timestamp;
}

/** Migration 0029: one person's in-app notifications. */
export interface NotificationsTable {
  id: Generated<string>;
  recipient_id: string;
  kind: "risk_up" | "risk_down" | "report_written" | "record_changed";
  student_id: string | null;
  class_id: string | null;
  payload: ColumnType<unknown, string | undefined, string>;
  created_at: Timestamp;
  read_at: NullableTimestamp;
}

/** Migration 0029: the digest preference and the key that signs unsubscribe links. */
export interface NotificationSettingsTable {
  user_id: string;
  digest: Generated<"off" | "daily" | "weekly">;
  unsubscribe_key: string;
  changed_at: Timestamp;
}

/** Migration 0029: a digest written to the outbox, once per person and period. */
export interface DigestsTable {
  user_id: string;
  period: string;
  items: Generated<number>;
  created_at: Timestamp;
}

/** Migration 0029: mail to send; marked sent once the SMTP server accepted it. */
export interface MailOutboxTable {
  id: Generated<string>;
  recipient_id: string | null;
  recipient: string;
  subject: string;
  body: string;
  kind: string;
  dedupe_key: string;
  state: Generated<"pending" | "sent" | "failed">;
  attempts: Generated<number>;
  created_at: Timestamp;
  sent_at: NullableTimestamp;
  error: string | null;
}

/** Migration 0029: a teacher's judgement of one risk flag (one prediction). */
export interface FlagFeedbackTable {
  teacher_id: string;
  prediction_id: string;
  class_id: string;
  student_id: string;
  model_version: string;
  judgement: "acknowledged" | "not_useful" | "incorrect";
  reason: string | null;
  updated_at: Timestamp;
}

/** Migration 0029: an intervention plan for a student in a class. */
export interface InterventionPlansTable {
  id: Generated<string>;
  class_id: string;
  student_id: string;
  owner_id: string | null;
  tier: number;
  goal: string;
  review_on: ColumnType<string, string, string>;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  closed_at: NullableTimestamp;
  outcome: string | null;
}

/** Migration 0028: a guardian's consent for a student under the age of digital consent. */
export interface GuardianConsentsTable {
  id: Generated<string>;
  student_id: string;
  guardian_email: string;
  token_hash: string;
  withdraw_token_hash: string | null;
  text_version: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  consented_at: Timestamp | null;
  withdrawn_at: Timestamp | null;
  withdrawn_by: "guardian" | "admin" | null;
}

/** Migration 0028: a student's "this prediction is wrong because ...". */
export interface PredictionContestsTable {
  id: Generated<string>;
  prediction_id: string;
  student_id: string;
  reason: string;
  created_at: Timestamp;
}

/** Migration 0031: a class that came from the school's system (OneRoster), by its sourcedId. */
export interface OneRosterClassesTable {
  sourced_id: string;
  class_id: string;
  created_at: Generated<Timestamp>;
}

/** Migration 0031: a person as the school's system names them (the address found or invited). */
export interface OneRosterUsersTable {
  sourced_id: string;
  email: string;
  name: string;
  updated_at: Generated<Timestamp>;
}

/** Migration 0031: the enrolments the school's roster holds now. */
export interface OneRosterEnrolmentsTable {
  sourced_id: string;
  class_sourced_id: string;
  user_sourced_id: string;
  role: "student" | "teacher";
}

export interface DB {
  users: UsersTable;
  sessions: SessionsTable;
  email_codes: EmailCodesTable;
  password_resets: PasswordResetsTable;
  student_reports: StudentReportsTable;
  students: StudentsTable;
  predictions: PredictionsTable;
  audit_log: AuditLogTable;
  classes: ClassesTable;
  class_teachers: ClassTeachersTable;
  enrolments: EnrolmentsTable;
  class_invitations: ClassInvitationsTable;
  teacher_invitations: TeacherInvitationsTable;
  mfa_recovery_codes: MfaRecoveryCodesTable;
  intervention_notes: InterventionNotesTable;
  explanation_shares: ExplanationSharesTable;
  explanation_share_teachers: ExplanationShareTeachersTable;
  roster_email_counts: RosterEmailCountsTable;
  record_entries: RecordEntriesTable;
  school_records: SchoolRecordsTable;
  jobs: JobsTable;
  account_deletions: AccountDeletionsTable;
  retention_settings: RetentionSettingsTable;
  privacy_settings: PrivacySettingsTable;
  user_identities: UserIdentitiesTable;
  oidc_logins: OidcLoginsTable;
  model_versions: ModelVersionsTable;
  alert_states: AlertStatesTable;
  alert_backlog: AlertBacklogTable;
  notifications: NotificationsTable;
  notification_settings: NotificationSettingsTable;
  digests: DigestsTable;
  mail_outbox: MailOutboxTable;
  flag_feedback: FlagFeedbackTable;
  intervention_plans: InterventionPlansTable;
  guardian_consents: GuardianConsentsTable;
  prediction_contests: PredictionContestsTable;
  oneroster_classes: OneRosterClassesTable;
  oneroster_users: OneRosterUsersTable;
  oneroster_enrolments: OneRosterEnrolmentsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type ReportRow = Selectable<StudentReportsTable>;
export type StudentRow = Selectable<StudentsTable>;
export type PredictionRow = Selectable<PredictionsTable>;
export type ClassRow = Selectable<ClassesTable>;
