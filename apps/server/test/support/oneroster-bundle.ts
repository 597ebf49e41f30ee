import { strToU8, zipSync } from "fflate";

// OneRoster 1.2 CSV bundles for tests and the benchmark, built in code from CSV text.

export interface BundleFiles {
  manifest?: string;
  [file: string]: string | undefined;
}

const files = ["orgs", "academicSessions", "courses", "classes", "users", "roles", "enrollments"];

/** The manifest for the files given (each bulk, or `mode`), the rest absent. */
export function manifestFor(present: string[], mode: "bulk" | "delta" = "bulk"): string {
  return [
    "propertyName,value",
    "manifest.version,1.0",
    "oneroster.version,1.2",
    ...files.map((f) => `file.${f},${present.includes(f) ? mode : "absent"}`),
    "",
  ].join("\r\n");
}

/** A ZIP of the given CSV texts; `manifest` defaults to one listing the other files. */
export function zipBundle(parts: BundleFiles, mode: "bulk" | "delta" = "bulk"): Buffer {
  const present = Object.keys(parts).filter((k) => k !== "manifest" && parts[k] !== undefined);
  const entries: Record<string, Uint8Array> = {};
  const manifest = "manifest" in parts ? parts.manifest : manifestFor(present, mode);
  if (manifest !== undefined) entries["manifest.csv"] = strToU8(manifest);
  for (const name of present) entries[`${name}.csv`] = strToU8(parts[name] as string);
  return Buffer.from(zipSync(entries));
}

export const headers = {
  academicSessions:
    "sourcedId,status,dateLastModified,title,type,startDate,endDate,parentSourcedId,schoolYear",
  courses:
    "sourcedId,status,dateLastModified,schoolYearSourcedId,title,courseCode,grades,orgSourcedId,subjects,subjectCodes",
  classes:
    "sourcedId,status,dateLastModified,title,grades,courseSourcedId,classCode,classType,location,schoolSourcedId,termSourcedIds,subjects,subjectCodes,periods",
  users:
    "sourcedId,status,dateLastModified,enabledUser,username,userIds,givenName,familyName,middleName,identifier,email",
  roles:
    "sourcedId,status,dateLastModified,userSourcedId,roleType,role,beginDate,endDate,orgSourcedId,userProfileSourcedId",
  enrollments:
    "sourcedId,status,dateLastModified,classSourcedId,schoolSourcedId,userSourcedId,role,primary,beginDate,endDate",
} as const;

export const csv = (header: string, lines: string[]) => [header, ...lines, ""].join("\r\n");
export const userLine = (id: string, given: string, family: string, email: string, status = "") =>
  `${id},${status},,true,${id},,${given},${family},,,${email}`;
export const enrolLine = (id: string, cls: string, user: string, role: string, status = "") =>
  `${id},${status},,${cls},org1,${user},${role},,,`;
export const classLine = (id: string, title: string, course: string, status = "") =>
  `${id},${status},,${title},,${course},,scheduled,,org1,term1,,,`;
export const courseLine = (id: string, title: string, code: string) =>
  `${id},,,,${title},${code},,org1,,`;

/** The one academic session of the sample bundles: the school year 2027 (term1). */
export const schoolYear2027 = csv(headers.academicSessions, [
  "term1,,,Year 2027,schoolYear,2026-09-01,2027-07-31,,2027",
]);

/** The lines (no headers) of the four files that vary between the sample bundles. */
export interface SchoolLines {
  courses: string[];
  classes: string[];
  users: string[];
  enrollments: string[];
}

/** The files of a bundle of the school year 2027 holding these lines, each under its header. */
export const schoolYearFiles = (lines: SchoolLines) => ({
  academicSessions: schoolYear2027,
  courses: csv(headers.courses, lines.courses),
  classes: csv(headers.classes, lines.classes),
  users: csv(headers.users, lines.users),
  enrollments: csv(headers.enrollments, lines.enrollments),
});
