import type { ColumnType, Generated, Insertable, Selectable, Updateable } from "kysely";

// The tables of DESIGN.md section 5, as Kysely sees them. Every stored secret is a hash.
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
}

export interface EmailCodesTable {
  id: Generated<string>;
  user_id: string;
  code_hash: string;
  attempts: Generated<number>;
  created_at: Generated<Timestamp>;
  expires_at: Timestamp;
  consumed_at: Timestamp | null;
}

export interface PasswordResetsTable {
  id: Generated<string>;
  user_id: string;
  token_hash: string;
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
  created_at: Generated<Timestamp>;
  updated_at: Generated<Timestamp>;
}

export interface StudentsTable {
  id: Generated<string>;
  user_id: string;
  school: string;
  sex: string;
  age: number;
  address: string;
  famsize: string;
  pstatus: string;
  medu: number;
  fedu: number;
  mjob: string;
  fjob: string;
  reason: string;
  guardian: string;
  traveltime: number;
  studytime: number;
  failures: number;
  schoolsup: string;
  famsup: string;
  paid: string;
  activities: string;
  nursery: string;
  higher: string;
  internet: string;
  romantic: string;
  famrel: number;
  freetime: number;
  goout: number;
  health: number;
  absences: number;
  g1: number;
  g2: number;
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
  created_at: Generated<Timestamp>;
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

export interface DB {
  users: UsersTable;
  sessions: SessionsTable;
  email_codes: EmailCodesTable;
  password_resets: PasswordResetsTable;
  student_reports: StudentReportsTable;
  students: StudentsTable;
  predictions: PredictionsTable;
  audit_log: AuditLogTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type ReportRow = Selectable<StudentReportsTable>;
export type StudentRow = Selectable<StudentsTable>;
export type PredictionRow = Selectable<PredictionsTable>;
