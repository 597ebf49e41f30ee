import { z } from "zod";

// Rosters from the school's system (issue 34): a OneRoster 1.2 CSV bundle (a ZIP of manifest.csv,
// orgs, academicSessions, courses, classes, users, roles, enrollments) imported by an admin. A
// bundle with any bad line is refused whole; the 400 answer's `fields` name each one as
// "users.csv line 4" (or the file, or "bundle") with the reason.

export const oneRosterLimits = {
  /** The ZIP as uploaded. */
  bytes: 50 * 1024 * 1024,
  /** Each CSV once unpacked (a ZIP bomb is refused before it is inflated). */
  fileBytes: 100 * 1024 * 1024,
  /** Records of any one file. */
  rows: 200_000,
  /** Bad lines listed in a refusal; the message gives how many there were in all. */
  errors: 100,
  /** Items listed per kind of change in the answer (the counts are whole). */
  items: 20,
} as const;

export const oneRosterModes = ["bulk", "delta"] as const;
export type OneRosterMode = (typeof oneRosterModes)[number];

export const oneRosterQuerySchema = z.object({
  dryRun: z
    .enum(["true", "false"], { error: "dryRun is true or false." })
    .optional()
    .describe("true: the preview, nothing is written"),
  mode: z
    .enum(oneRosterModes, { error: "mode is bulk or delta." })
    .optional()
    .describe(
      "bulk (default): the bundle is the whole roster, enrolments missing from it end; delta: only what it lists changes",
    ),
});

/** One kind of change: how many, and the first few (a label each). */
export const oneRosterChangeSchema = z.object({
  count: z.number().int(),
  items: z.array(z.string()),
});
export type OneRosterChange = z.infer<typeof oneRosterChangeSchema>;

export const oneRosterChangeKinds = [
  "classesCreated",
  "classesUpdated",
  "teachersApproved",
  "teachersInvited",
  "teachersAdded",
  "teachersRestored",
  "teachersRemoved",
  "studentsInvited",
  "studentsAlreadyEnrolled",
  "enrolmentsEnded",
  "unmappedClasses",
  "skipped",
] as const;
export type OneRosterChangeKind = (typeof oneRosterChangeKinds)[number];

export const oneRosterResultSchema = z.object({
  dryRun: z.boolean(),
  mode: z.enum(oneRosterModes),
  /** Records read, by file. */
  read: z.record(z.string(), z.number().int()),
  changes: z.object(
    Object.fromEntries(oneRosterChangeKinds.map((k) => [k, oneRosterChangeSchema])) as Record<
      OneRosterChangeKind,
      typeof oneRosterChangeSchema
    >,
  ),
  /**
   * Invitation emails to be written (issue 34, decision 0025): one per teacher invited with no
   * account yet (written in the import), and one per student address with no account that the
   * import invites to a class (written after the import by a job, one email listing all its
   * classes; none for an address already emailed for the same classes). Sent by a job, off the
   * request. In a preview, the same count: nothing is rendered.
   */
  emailsQueued: z.number().int(),
  message: z.string(),
});
export type OneRosterResult = z.infer<typeof oneRosterResultSchema>;

/** What each kind of change means, for the preview. */
export const oneRosterChangeLabels: Record<OneRosterChangeKind, string> = {
  classesCreated: "Classes created",
  classesUpdated: "Classes renamed or moved",
  teachersApproved: "Accounts made teachers (the school's system names them as teachers)",
  teachersInvited: "Teachers invited by email (no account yet)",
  teachersAdded: "Teachers added to classes",
  teachersRestored:
    "Teachers put back on classes they were taken off by hand (the school's system says they teach them)",
  teachersRemoved: "Teachers taken off classes",
  studentsInvited: "Students invited to classes (they accept, or register with the address)",
  studentsAlreadyEnrolled: "Students already in their class",
  enrolmentsEnded: "Enrolments and invitations ended",
  unmappedClasses: "Classes not imported: their course code maps to no subject",
  skipped: "Lines left out (other roles, accounts that cannot teach)",
};

export const oneRosterMessages = {
  notZip: "The bundle must be a ZIP file (application/zip).",
  tooLarge: `The bundle must be at most ${oneRosterLimits.bytes / 1024 / 1024} MB.`,
  rejected: (count: number) =>
    count === 1
      ? "The bundle was not imported: 1 line needs fixing. Nothing was changed."
      : `The bundle was not imported: ${count} lines need fixing. Nothing was changed.`,
  noManifest: "The bundle has no manifest.csv.",
  manifestVersion: "oneroster.version must be 1.2.",
  manifestMode: (file: string, said: string) =>
    `file.${file} is ${said}; it must be bulk, delta or absent.`,
  modeMismatch: (file: string, said: string, mode: string) =>
    `file.${file} is ${said}, but this is a ${mode} import.`,
  missingFile: (file: string) => `The manifest lists ${file}, but the bundle has no such file.`,
  requiredFile: (file: string) => `A bulk import needs ${file}.`,
  fileTooLarge: (file: string) => `${file} is too large once unpacked.`,
  notUtf8: "The file is not UTF-8 text.",
  notCsv: "The file cannot be read as CSV (an unclosed quote?).",
  tooManyRows: (max: number) => `The file has more than ${max} lines.`,
  missingColumn: (column: string) => `The header has no ${column} column.`,
  unknownColumn: (column: string) => `Unknown column "${column}".`,
  repeatedColumn: (column: string) => `The column "${column}" appears twice.`,
  columns: (expected: number, got: number) => `Expected ${expected} values, found ${got}.`,
  required: (column: string) => `${column} is empty.`,
  duplicate: (line: number) => `This sourcedId is already used on line ${line}.`,
  badStatus: (status: string, mode: string) =>
    mode === "bulk"
      ? `status "${status}": a bulk file's status is empty or active.`
      : `status "${status}": it must be empty, active or tobedeleted.`,
  badRole: (role: string) => `Unknown role "${role}".`,
  badEmail: "email is not an email address.",
  noEmail: "The user has no email address: they cannot be found or invited.",
  unknownReference: (column: string, id: string) => `${column} "${id}" is not in the bundle.`,
  moreErrors: (more: number) => `…and ${more} more lines.`,
  done: "The roster was imported.",
  preview: "Nothing has changed yet: this is what the import would do.",
} as const;
