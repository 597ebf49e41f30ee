import { z } from "zod";
import type { Audience } from "./roles.ts";

// One declaration per API route (docs/decisions/0015-one-declaration-per-route.md): its method
// and path, who may call it and on which records, its path parameters, query and body, each
// success it answers, its body limit and media types, and a summary. The entries live in one file
// per domain (routes/*.ts); the server registers each route from its entry, the access hook
// enforces the entry's rule, the OpenAPI document is generated from the entries, and the web
// client calls by entry. Nothing else names a route.

/** "class": their own records and those of the classes they teach (issue 17). */
export type Scope = "none" | "own" | "class" | "any";

export interface AccessRule {
  /** Roles allowed to call; "anonymous" means no sign-in is needed. */
  allow: readonly Audience[];
  /** For calls on one record: which records each role reaches. */
  scope?: Partial<Record<Audience, Scope>>;
  /**
   * Data about other people: a signed-in caller whose email is not verified gets 403
   * `email_not_verified` (a stranger's made-up address reads nothing).
   */
  verified?: true;
}

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** What a route declares besides its method, path and access rule. */
export interface RouteContract {
  summary: string;
  params?: z.ZodObject;
  querystring?: z.ZodType;
  body?: z.ZodType;
  /** Success answers by status; errors are added from the access rule. */
  response: Record<number, z.ZodType>;
  /** The body is not JSON: its media type. */
  produces?: string;
  /** The request body is not JSON: its media type (the roster upload). */
  consumes?: string;
  /** The most bytes its request body may have, when not `defaultBodyLimit`; the 413 names it. */
  bodyLimit?: number;
}

export interface RouteEntry extends RouteContract {
  method: Method;
  path: `/api/${string}`;
  access: AccessRule;
  /** "METHOD /path": how tables, logs and the route tree name the route. */
  key: string;
}

type Declared = Omit<RouteEntry, "key">;

/** One route's entry; its key is "METHOD /path". */
export function defineRoute<const E extends Declared>(
  entry: E,
): E & { key: `${E["method"]} ${E["path"]}` } {
  return { ...entry, key: `${entry.method} ${entry.path}` as `${E["method"]} ${E["path"]}` };
}

export const kb = (n: number) => n * 1024;
/**
 * A request body's size limit where a route declares none: a few KB, above the largest valid
 * body of every such route (body-limits.test.ts writes each one with every character escaped).
 */
export const defaultBodyLimit = kb(4);

/** The most bytes a route's request body may have. */
export function bodyLimitOfEntry(entry: RouteContract): number {
  return entry.bodyLimit ?? defaultBodyLimit;
}

// Who may call: the rules most routes share.
export const anyone = { allow: ["anonymous", "student", "teacher", "admin"] } as const;
export const signedIn = { allow: ["student", "teacher", "admin"] } as const;
export const signedInVerified = { ...signedIn, verified: true } as const;
export const staff = { allow: ["teacher", "admin"], verified: true } as const;
/** Staff on one record: a teacher their own (or their class's), an admin any. */
export const staffOwn = { ...staff, scope: { teacher: "own", admin: "any" } } as const;
/** A class's own teachers, and no one else: an admin is refused by role. */
export const classTeachers = {
  allow: ["teacher"],
  verified: true,
  scope: { teacher: "own" },
} as const;
export const students = { allow: ["student", "admin"] } as const;
/** Students and admins, each on their own records only. */
export const studentsOwn = { ...students, scope: { student: "own", admin: "own" } } as const;
export const admins = { allow: ["admin"], verified: true } as const;
export const studentsOnly = { allow: ["student"] } as const;
export const verifiedStudents = { allow: ["student"], verified: true } as const;

// Path parameters.
export const pathId = (what: string) =>
  z.string().min(1).max(100).describe(`The ${what}'s id (a UUID; any other value finds nothing)`);
export const idParams = z.object({ id: pathId("record") });
export const uidParams = z.object({ uid: pathId("user") });
export const classParams = z.object({ id: pathId("class") });
export const memberParams = z.object({ id: pathId("class"), uid: pathId("user") });
export const invitedEmail = z.string().max(320).describe("The invited address");

/** A CSV file as the success answer (a download). */
export const csvDownload = { response: { 200: z.string() }, produces: "text/csv" } as const;
