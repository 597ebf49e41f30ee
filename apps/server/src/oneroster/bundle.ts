import {
  oneRosterMessages as m,
  type OneRosterMode,
  oneRosterLimits,
} from "@gradecast/contract/oneroster";
import { unzipSync } from "fflate";
import { decodeUtf8, readRecords } from "../csv/read.ts";

// Reading a OneRoster 1.2 CSV bundle (issue 34): a ZIP whose manifest.csv says, for each file,
// whether it is there in full (bulk), as changes (delta) or not at all (absent). Each file's
// header names its columns in any order (the standard's, and `metadata.*` extensions); every
// line is checked and every bad one named ("users.csv line 4"), so the school fixes the export
// once. References between files (an enrolment's class and user) are checked by the service,
// which also knows what earlier imports brought.

export type Status = "active" | "tobedeleted";

export interface BundleClass {
  line: number;
  status: Status;
  title: string;
  courseSourcedId: string;
  termSourcedIds: string[];
}

export interface BundleUser {
  line: number;
  status: Status;
  /** Lower case; "" when the line gives none. */
  email: string;
  name: string;
  roles: Set<string>;
}

export interface BundleEnrolment {
  line: number;
  status: Status;
  classSourcedId: string;
  userSourcedId: string;
  role: string;
}

export interface Bundle {
  mode: OneRosterMode;
  /** Records read, by file name. */
  read: Record<string, number>;
  /** The files the manifest lists as present. */
  present: Set<string>;
  courses: Map<string, { line: number; status: Status; code: string; title: string }>;
  sessions: Map<string, { line: number; status: Status; title: string; schoolYear: string }>;
  classes: Map<string, BundleClass>;
  users: Map<string, BundleUser>;
  enrolments: Map<string, BundleEnrolment>;
}

/** Bad lines: "users.csv line 4" (or "users.csv", or "bundle") -> reason, in file order. */
export type BundleErrors = Map<string, string>;

const common = ["sourcedId", "status", "dateLastModified"];
/** Each file's columns (OneRoster 1.2, and 1.1's users.role and orgSourcedIds), and those required. */
const files = {
  orgs: {
    columns: [...common, "name", "type", "identifier", "parentSourcedId"],
    required: ["name"],
  },
  academicSessions: {
    columns: [...common, "title", "type", "startDate", "endDate", "parentSourcedId", "schoolYear"],
    required: ["title"],
  },
  courses: {
    columns: [
      ...common,
      "schoolYearSourcedId",
      "title",
      "courseCode",
      "grades",
      "orgSourcedId",
      "subjects",
      "subjectCodes",
    ],
    required: ["title", "courseCode"],
  },
  classes: {
    columns: [
      ...common,
      "title",
      "grades",
      "courseSourcedId",
      "classCode",
      "classType",
      "location",
      "schoolSourcedId",
      "termSourcedIds",
      "subjects",
      "subjectCodes",
      "periods",
    ],
    required: ["title", "courseSourcedId"],
  },
  users: {
    columns: [
      ...common,
      "enabledUser",
      "username",
      "userIds",
      "givenName",
      "familyName",
      "middleName",
      "identifier",
      "email",
      "sms",
      "phone",
      "agentSourcedIds",
      "grades",
      "password",
      "userMasterIdentifier",
      "resourceSourcedIds",
      "preferredGivenName",
      "preferredMiddleName",
      "preferredFamilyName",
      "primaryOrgSourcedId",
      "pronouns",
      "orgSourcedIds",
      "role",
    ],
    required: ["email"],
  },
  roles: {
    columns: [
      ...common,
      "userSourcedId",
      "roleType",
      "role",
      "beginDate",
      "endDate",
      "orgSourcedId",
      "userProfileSourcedId",
    ],
    required: ["userSourcedId", "role"],
  },
  enrollments: {
    columns: [
      ...common,
      "classSourcedId",
      "schoolSourcedId",
      "userSourcedId",
      "role",
      "primary",
      "beginDate",
      "endDate",
    ],
    required: ["classSourcedId", "userSourcedId", "role"],
  },
} as const;
type FileName = keyof typeof files;
const fileNames = Object.keys(files) as FileName[];
/** A bulk import needs these; the others are read when present. */
const bulkRequired: FileName[] = ["courses", "classes", "users", "enrollments"];

/** Roles of users.csv (1.1) and roles.csv (1.2), and of enrollments.csv. */
const userRoles = new Set([
  "administrator",
  "aide",
  "counselor",
  "districtAdministrator",
  "guardian",
  "parent",
  "principal",
  "proctor",
  "relative",
  "siteAdministrator",
  "student",
  "systemAdministrator",
  "teacher",
]);
const enrolmentRoles = new Set(["administrator", "aide", "proctor", "student", "teacher"]);
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const lineKey = (file: string, line: number) => `${file} line ${line}`;

interface Row {
  line: number;
  get(column: string): string;
}

/**
 * One file's rows, its header checked; undefined (with the reason in `errors`) when the file
 * cannot be read at all.
 */
async function readFile(
  name: FileName,
  bytes: Uint8Array,
  errors: BundleErrors,
): Promise<Row[] | undefined> {
  const file = `${name}.csv`;
  const text = decodeUtf8(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  if (text === undefined) {
    errors.set(file, m.notUtf8);
    return undefined;
  }
  const read = await readRecords(text, ",", oneRosterLimits.rows);
  if ("tooMany" in read) {
    errors.set(file, m.tooManyRows(oneRosterLimits.rows));
    return undefined;
  }
  if ("badLine" in read) {
    errors.set(read.badLine ? lineKey(file, read.badLine) : file, m.notCsv);
    return undefined;
  }
  const [header, ...body] = read.records;
  if (!header) {
    errors.set(lineKey(file, 1), m.missingColumn("sourcedId"));
    return undefined;
  }
  const known = new Set<string>(files[name].columns);
  const at = new Map<string, number>();
  for (const [i, raw] of header.record.entries()) {
    const column = raw.trim();
    if (!known.has(column) && !column.startsWith("metadata.")) {
      errors.set(lineKey(file, header.line), m.unknownColumn(column));
      return undefined;
    }
    if (at.has(column)) {
      errors.set(lineKey(file, header.line), m.repeatedColumn(column));
      return undefined;
    }
    at.set(column, i);
  }
  for (const column of ["sourcedId", "status", ...files[name].required]) {
    if (!at.has(column)) {
      errors.set(lineKey(file, header.line), m.missingColumn(column));
      return undefined;
    }
  }
  const width = header.record.length;
  const rows: Row[] = [];
  for (const { record, line } of body) {
    if (record.every((cell) => cell.trim() === "")) continue;
    if (record.length !== width) {
      errors.set(lineKey(file, line), m.columns(width, record.length));
      continue;
    }
    rows.push({
      line,
      get: (column) => {
        const i = at.get(column);
        return i === undefined ? "" : (record[i] ?? "").trim();
      },
    });
  }
  return rows;
}

/** Unpacks and reads the bundle; `errors` is empty when every line is good. */
export async function readBundle(
  zip: Buffer,
  mode: OneRosterMode,
): Promise<{ bundle: Bundle; errors: BundleErrors }> {
  const errors: BundleErrors = new Map();
  const bundle: Bundle = {
    mode,
    read: {},
    present: new Set(),
    courses: new Map(),
    sessions: new Map(),
    classes: new Map(),
    users: new Map(),
    enrolments: new Map(),
  };
  let entries: Record<string, Uint8Array>;
  try {
    const wanted = new Set(["manifest.csv", ...fileNames.map((f) => `${f}.csv`)]);
    let tooLarge: string | undefined;
    entries = unzipSync(new Uint8Array(zip.buffer, zip.byteOffset, zip.byteLength), {
      filter: (file) => {
        const name = baseName(file.name);
        if (!wanted.has(name)) return false;
        if (file.originalSize > oneRosterLimits.fileBytes) {
          tooLarge ??= name;
          return false;
        }
        return true;
      },
    });
    if (tooLarge) {
      errors.set(tooLarge, m.fileTooLarge(tooLarge));
      return { bundle, errors };
    }
  } catch {
    errors.set("bundle", m.notZip);
    return { bundle, errors };
  }
  const byName = new Map(Object.entries(entries).map(([path, bytes]) => [baseName(path), bytes]));
  const manifest = byName.get("manifest.csv");
  if (!manifest) {
    errors.set("bundle", m.noManifest);
    return { bundle, errors };
  }
  readManifest(await readManifestRows(manifest, errors), bundle, byName, errors);
  if (errors.size > 0) return { bundle, errors };

  const rowsOf = async (name: FileName) => {
    const bytes = bundle.present.has(name) ? byName.get(`${name}.csv`) : undefined;
    if (!bytes) return [];
    const rows = (await readFile(name, bytes, errors)) ?? [];
    bundle.read[`${name}.csv`] = rows.length;
    return rows;
  };

  // Each file: its sourcedIds once each, its status, the values it must have.
  const lines = <T>(
    name: FileName,
    rows: Row[],
    into: Map<string, T & { line: number }>,
    value: (row: Row, status: Status, fail: (reason: string) => void) => T | undefined,
  ) => {
    const file = `${name}.csv`;
    for (const row of rows) {
      const key = lineKey(file, row.line);
      const fail = (reason: string) => {
        if (!errors.has(key)) errors.set(key, reason);
      };
      const id = row.get("sourcedId");
      if (id === "" || id.length > 256) {
        fail(m.required("sourcedId"));
        continue;
      }
      const said = row.get("status");
      const status = statusOf(said, mode);
      if (!status) {
        fail(m.badStatus(said, mode));
        continue;
      }
      const first = into.get(id);
      if (first) {
        fail(m.duplicate(first.line));
        continue;
      }
      if (status === "active") {
        for (const column of files[name].required) {
          if (name === "users" && column === "email") continue;
          if (row.get(column) === "") fail(m.required(column));
        }
        if (errors.has(key)) continue;
      }
      const made = value(row, status, fail);
      if (made !== undefined && !errors.has(key)) into.set(id, { ...made, line: row.line });
    }
  };

  lines("orgs", await rowsOf("orgs"), new Map(), () => ({}));
  lines("academicSessions", await rowsOf("academicSessions"), bundle.sessions, (row, status) => ({
    status,
    title: row.get("title"),
    schoolYear: row.get("schoolYear"),
  }));
  lines("courses", await rowsOf("courses"), bundle.courses, (row, status) => ({
    status,
    code: row.get("courseCode"),
    title: row.get("title"),
  }));
  lines("classes", await rowsOf("classes"), bundle.classes, (row, status) => ({
    status,
    title: row.get("title"),
    courseSourcedId: row.get("courseSourcedId"),
    termSourcedIds: row
      .get("termSourcedIds")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  }));
  lines("users", await rowsOf("users"), bundle.users, (row, status, fail) => {
    const email = row.get("email").toLowerCase();
    if (email !== "" && (email.length > 254 || !emailPattern.test(email))) fail(m.badEmail);
    const roles = new Set<string>();
    const role = row.get("role");
    if (role !== "") {
      if (!userRoles.has(role)) fail(m.badRole(role));
      roles.add(role);
    }
    return { status, email, name: nameOf(row), roles };
  });
  const roleRows = new Map<string, { line: number }>();
  lines("roles", await rowsOf("roles"), roleRows, (row, status, fail) => {
    const role = row.get("role");
    if (status === "active" && !userRoles.has(role)) fail(m.badRole(role));
    const userId = row.get("userSourcedId");
    const user = bundle.users.get(userId);
    if (status === "active" && userId !== "" && !user && bundle.present.has("users")) {
      // A delta may give a role of a user an earlier bundle brought: not checked here.
      if (mode === "bulk") fail(m.unknownReference("userSourcedId", userId));
    }
    if (status === "active") user?.roles.add(role);
    return {};
  });
  lines("enrollments", await rowsOf("enrollments"), bundle.enrolments, (row, status, fail) => {
    const role = row.get("role");
    if (status === "active" && !enrolmentRoles.has(role)) fail(m.badRole(role));
    return {
      status,
      classSourcedId: row.get("classSourcedId"),
      userSourcedId: row.get("userSourcedId"),
      role,
    };
  });
  return { bundle, errors };
}

/** The file's name without any folder the ZIP put it in. */
const baseName = (path: string) => path.slice(path.lastIndexOf("/") + 1);

function statusOf(said: string, mode: OneRosterMode): Status | undefined {
  const s = said.toLowerCase();
  if (s === "" || s === "active") return "active";
  if (s === "tobedeleted" && mode === "delta") return "tobedeleted";
  return undefined;
}

/** The name the person goes by: preferred given name (or given name) and family name. */
function nameOf(row: Row): string {
  const given = row.get("preferredGivenName") || row.get("givenName");
  const family = row.get("preferredFamilyName") || row.get("familyName");
  const full = `${given} ${family}`.trim() || row.get("username") || row.get("email").split("@")[0];
  return (full || "Unnamed").replace(/\s+/g, " ").slice(0, 100);
}

async function readManifestRows(bytes: Uint8Array, errors: BundleErrors) {
  const text = decodeUtf8(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  if (text === undefined) {
    errors.set("manifest.csv", m.notUtf8);
    return [];
  }
  const read = await readRecords(text, ",", 1000);
  if (!("records" in read)) {
    errors.set("manifest.csv", m.notCsv);
    return [];
  }
  return read.records;
}

/** Checks the manifest's version and each file's mode against the import's and the ZIP. */
function readManifest(
  records: { record: string[]; line: number }[],
  bundle: Bundle,
  byName: Map<string, Uint8Array>,
  errors: BundleErrors,
) {
  if (errors.size > 0) return;
  const [header, ...body] = records;
  const head = header?.record.map((c) => c.trim());
  if (!header || head?.[0] !== "propertyName" || head?.[1] !== "value") {
    errors.set(lineKey("manifest.csv", header?.line ?? 1), m.missingColumn("propertyName,value"));
    return;
  }
  const said = new Map<string, { value: string; line: number }>();
  for (const { record, line } of body) {
    const [property = "", value = ""] = record.map((c) => c.trim());
    if (property !== "") said.set(property, { value, line });
  }
  const version = said.get("oneroster.version");
  if (version?.value !== "1.2") {
    errors.set(lineKey("manifest.csv", version?.line ?? header.line), m.manifestVersion);
  }
  for (const file of fileNames) {
    const entry = said.get(`file.${file}`);
    const value = (entry?.value ?? "absent").toLowerCase();
    const key = entry ? lineKey("manifest.csv", entry.line) : "manifest.csv";
    if (value === "absent") {
      if (bundle.mode === "bulk" && bulkRequired.includes(file)) {
        errors.set(key, m.requiredFile(`${file}.csv`));
      }
      continue;
    }
    if (value !== "bulk" && value !== "delta") {
      errors.set(key, m.manifestMode(file, value));
      continue;
    }
    if (value !== bundle.mode) {
      errors.set(key, m.modeMismatch(file, value, bundle.mode));
      continue;
    }
    if (!byName.has(`${file}.csv`)) {
      errors.set(key, m.missingFile(`${file}.csv`));
      continue;
    }
    bundle.present.add(file);
  }
}
