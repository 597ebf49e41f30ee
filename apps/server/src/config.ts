import { createPrivateKey } from "node:crypto";
import { isIP } from "node:net";
import path from "node:path";
import { type Locale, locales } from "@gradecast/contract/locale";
import {
  defaultOptionalQuestions,
  isOptionalCapable,
  type ModelSchool,
  modelSchools,
  type OptionalCapableKey,
  optionalCapableKeys,
} from "@gradecast/contract/questionnaire";
import { schoolNameLimit } from "@gradecast/contract/site";
import { z } from "zod";

// Every environment variable Gradecast reads, parsed once at start. A bad value stops the
// process with one line per variable (see main.ts); .env.example documents each of them.

const url = (schemes: string[]) =>
  z
    .string()
    .trim()
    .refine(
      (v) => {
        try {
          return schemes.includes(new URL(v).protocol.replace(/:$/, ""));
        } catch {
          return false;
        }
      },
      { error: `must be a URL starting with ${schemes.map((s) => `${s}://`).join(" or ")}` },
    );

const emptyToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess(emptyToUndefined, schema.optional());

/** A whole number from `min` to `max`, one message for every way a value misses. */
const wholeNumber = (min: number, max: number) => {
  const error = `must be a whole number from ${min} to ${max}`;
  return z.coerce.number({ error }).int({ error }).min(min, { error }).max(max, { error });
};
/** wholeNumber, with `fallback` where the variable is unset or empty. */
const wholeNumberOr = (fallback: number, min: number, max: number) =>
  z.preprocess(emptyToUndefined, wholeNumber(min, max).default(fallback));

// proxy-addr's names for whole ranges, which Fastify accepts beside addresses.
const proxyRangeNames = ["loopback", "linklocal", "uniquelocal"];

function isProxyAddress(entry: string): boolean {
  if (proxyRangeNames.includes(entry)) return true;
  const [address, bits, ...rest] = entry.split("/");
  const family = isIP(address ?? "");
  if (rest.length > 0 || family === 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * Which X-Forwarded-For entries to believe: none (false), the last N hops, or those added by the
 * listed proxies; the client is the right-most address not trusted. `true` would take the
 * left-most entry, which any client writes itself, so it is refused.
 */
function parseTrustProxy(value: string, ctx: z.RefinementCtx): false | number | string[] {
  if (value === "false") return false;
  if (value === "true") {
    ctx.addIssue({
      code: "custom",
      message:
        "true would believe any X-Forwarded-For a client sends; set the number of proxies in front of Gradecast (for example 1) or their addresses (for example 10.0.0.2 or 10.0.0.0/24)",
    });
    return z.NEVER;
  }
  if (/^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= 10) return Number(value);
  const list = value
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (list.length > 0 && list.every(isProxyAddress)) return list;
  ctx.addIssue({
    code: "custom",
    message:
      "must be false, a number of proxies from 1 to 10, or proxy addresses or CIDR ranges separated by commas",
  });
  return z.NEVER;
}

function isEd25519PrivateKey(pem: string): boolean {
  try {
    return createPrivateKey(pem).asymmetricKeyType === "ed25519";
  } catch {
    return false;
  }
}

const list = z.string().transform((v) =>
  v
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean),
);
const roleList = list.pipe(
  z.array(
    z.enum(["student", "teacher", "admin"], { error: "must list student, teacher or admin" }),
  ),
);

export const envSchema = z.object({
  PORT: wholeNumberOr(3000, 0, 65535),
  HOST: z.preprocess(emptyToUndefined, z.string().default("0.0.0.0")),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default("./data")),
  DATABASE_URL: optional(url(["postgres", "postgresql"])),
  DATABASE_POOL_SIZE: wholeNumberOr(10, 1, 100),
  PUBLIC_URL: optional(url(["http", "https"])),
  SMTP_URL: optional(url(["smtp", "smtps"])),
  // Unset: "<SCHOOL_NAME or Gradecast> <no-reply@host of PUBLIC_URL>" (see mailSender).
  MAIL_FROM: optional(z.string().trim()),
  // Unset: the Contact page says the school has not given one yet (no placeholder address).
  CONTACT_EMAIL: optional(
    z
      .string()
      .trim()
      .pipe(z.email({ error: "must be an email address" })),
  ),
  SCHOOL_NAME: optional(
    z
      .string()
      .trim()
      .max(schoolNameLimit, { error: `must be at most ${schoolNameLimit} characters` }),
  ),
  JWT_PRIVATE_KEY: optional(
    z
      .string()
      // On one line, as .env files and .env.example write it: "\n" stands for a line break.
      .transform((v) => (v.includes("\n") ? v : v.replaceAll("\\n", "\n")).trim())
      .refine(isEd25519PrivateKey, { error: "must be a PEM-encoded Ed25519 private key" }),
  ),
  REDIS_URL: optional(url(["redis", "rediss"])),
  REDIS_KEY_PREFIX: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9:_.-]{1,64}$/, {
        error: "must be 1 to 64 letters, digits or : _ . -",
      })
      .default("gradecast-rl:"),
  ),
  ANALYTICS_EMBED_URL: optional(url(["http", "https"])),
  // The school the model is told about: one of the data set's two, or unset for neither.
  MODEL_SCHOOL: optional(
    z.enum(modelSchools, { error: "must be GP or MS (or unset for neither)" }),
  ),
  // Issue 30: the outcomes a school needs per subject before a candidate model may be promoted.
  MODEL_MIN_OUTCOMES: wholeNumberOr(50, 1, 100_000),
  // Issue 30: where the UCI files a candidate trains on live (student-mat.csv, student-por.csv).
  MODEL_DATA_DIR: z.preprocess(emptyToUndefined, z.string().trim().default("../shared/data")),
  TEACHER_SIGNUP: z.preprocess(
    emptyToUndefined,
    z
      .enum(["approval", "open", "closed"], { error: "must be approval, open or closed" })
      .default("approval"),
  ),
  // The language of answers and emails when neither the person nor their browser names one
  // Gradecast speaks (issue 33).
  DEFAULT_LOCALE: z.preprocess(
    emptyToUndefined,
    z.enum(locales, { error: "must be en or pt-PT" }).default("en"),
  ),
  // Data protection (issue 31 part B): the legal basis of the processing, and the age under
  // which a student's guardian consents (LEGAL_BASIS=consent only).
  LEGAL_BASIS: z.preprocess(
    emptyToUndefined,
    z
      .enum(["public-task", "consent"], { error: "must be public-task or consent" })
      .default("public-task"),
  ),
  DIGITAL_CONSENT_AGE: wholeNumberOr(13, 13, 16),
  // Issue 31: the questions a student may leave out ("Prefer not to say"); "none" for none.
  OPTIONAL_QUESTIONS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .trim()
      .transform((value, ctx): OptionalCapableKey[] => {
        if (value === "none") return [];
        const keys = value
          .split(",")
          .map((k) => k.trim())
          .filter(Boolean);
        const bad = keys.filter((k) => !isOptionalCapable(k));
        if (keys.length === 0 || bad.length > 0) {
          ctx.addIssue({
            code: "custom",
            message: `must be none or question keys separated by commas, from: ${optionalCapableKeys.join(", ")}${bad.length > 0 ? ` (not one of them: ${bad.join(", ")})` : ""}`,
          });
          return z.NEVER;
        }
        return [...new Set(keys)] as OptionalCapableKey[];
      })
      .default([...defaultOptionalQuestions]),
  ),
  TRUST_PROXY: z.preprocess(
    emptyToUndefined,
    z.string().trim().default("false").transform(parseTrustProxy),
  ),
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z
      .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], {
        error: "must be one of fatal, error, warn, info, debug, trace, silent",
      })
      .default("info"),
  ),
  RATE_LIMITS: z.preprocess(
    emptyToUndefined,
    z.enum(["on", "off"], { error: "must be on or off" }).default("on"),
  ),
  INVITATION_EMAILS_PER_DAY: wholeNumberOr(1000, 1, 100_000),
  // Data protection (issue 31): who a data subject writes to, and the erasure grace period.
  DPO_CONTACT: optional(z.string().trim().max(300, { error: "must be at most 300 characters" })),
  ACCOUNT_DELETION_GRACE_DAYS: wholeNumberOr(14, 0, 365),
  // Sign-in with the school's identity provider (issue 34): off while OIDC_ISSUER is unset.
  OIDC_ISSUER: optional(url(["http", "https"])),
  OIDC_CLIENT_ID: optional(z.string().trim()),
  OIDC_CLIENT_SECRET: optional(z.string()),
  OIDC_NAME: optional(z.string().trim().max(40, { error: "must be at most 40 characters" })),
  OIDC_ALLOWED_DOMAINS: optional(list),
  OIDC_GOOGLE_HD: optional(z.string().trim()),
  OIDC_ALLOWED_TENANTS: optional(list),
  OIDC_TEACHER_GROUPS: optional(list),
  OIDC_GROUPS_CLAIM: optional(z.string().trim()),
  OIDC_TRUST_AMR_MFA: z.preprocess(
    emptyToUndefined,
    z.enum(["on", "off"], { error: "must be on or off" }).default("off"),
  ),
  LOCAL_PASSWORDS_OFF: optional(roleList),
  // Issue 34: OneRoster course codes and the subject their classes are in ("MAT101=mat,POR12=por").
  ONEROSTER_SUBJECTS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .trim()
      .regex(/^[^=,]+=(mat|por)(\s*,\s*[^=,]+=(mat|por))*$/, {
        error: "must be course codes and subjects: CODE=mat,OTHER=por",
      })
      .optional(),
  ),
});

/** Sign-in with the school's OpenID provider, when OIDC_ISSUER is set. */
export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string | undefined;
  /** The button's "Sign in with …" and the session list's "oidc:<name>". */
  name: string;
  /** Lower-case email domains: an address outside them is refused; linking needs one of them. */
  allowedDomains: string[];
  /** Google Workspace: the ID token's `hd` must be this domain. */
  googleHd: string | undefined;
  /** Microsoft Entra: the ID token's `tid` must be one of these. */
  allowedTenants: string[];
  /** A new account whose groups claim names one of these asks for the teacher role. */
  teacherGroups: string[];
  groupsClaim: string | undefined;
  /** An admin skips the local TOTP code when the token's `amr` says "mfa". */
  trustAmrMfa: boolean;
}

export interface Config {
  port: number;
  /** The language when neither the person's setting nor Accept-Language decides (issue 33). */
  defaultLocale: Locale;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  databasePoolSize: number;
  publicUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Shown on the Contact page (GET /api/site); unset, the page says none is given yet. */
  contactEmail: string | undefined;
  /** The school's name on the public pages and as the mail sender's name. */
  schoolName: string | undefined;
  jwtPrivateKey: string | undefined;
  redisUrl: string | undefined;
  /** Start of every rate-limit key in Redis: deployments sharing one Redis set their own. */
  redisKeyPrefix: string;
  analyticsEmbedUrl: string | undefined;
  /**
   * The school every questionnaire and prediction is given (issue 28): the deployment's, never
   * the student's answer. null: neither of the model's two, which then favours neither.
   */
  modelSchool: ModelSchool | null;
  /** Outcomes per subject a candidate model needs before promotion (issue 30). */
  modelMinOutcomes: number;
  /** The directory of the UCI files a candidate model trains on (issue 30). */
  modelDataDir: string;
  /**
   * approval (default): a teacher sign-up waits as a student until an admin approves it; open:
   * a teacher at once; closed: teacher accounts come only from an admin.
   */
  teacherSignup: "approval" | "open" | "closed";
  /**
   * public-task (default): the school's public task, nobody's consent asked; consent: a student
   * under `digitalConsentAge` answers only once a guardian has consented by email.
   */
  legalBasis: "public-task" | "consent";
  digitalConsentAge: number;
  /**
   * The questions a student may leave out with "Prefer not to say" (OPTIONAL_QUESTIONS; issue
   * 31): the model answers without them. Any other question left out is refused.
   */
  optionalQuestions: readonly OptionalCapableKey[];
  /** false, a hop count, or the trusted proxies' addresses and ranges. */
  trustProxy: false | number | string[];
  logLevel: string;
  rateLimits: boolean;
  /** Roster invitation emails one person's imports may send per UTC day (issue 26). */
  invitationEmailsPerDay: number;
  /** Data protection (issue 31): the DPO's contact on /privacy; unset, the notice says so. */
  dpoContact: string | undefined;
  /** Days between a deletion request and the purge; signing in cancels it. */
  accountDeletionGraceDays: number;
  /** undefined: no sign-in with a provider (no button; its routes answer 404). */
  oidc: OidcConfig | undefined;
  /** Roles that may not sign in with a password (only through the provider). */
  localPasswordsOff: ("student" | "teacher" | "admin")[];
  /** OneRoster course code -> subject (ONEROSTER_SUBJECTS); a course not in it is not imported. */
  oneRosterSubjects: ReadonlyMap<string, "mat" | "por">;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join("\n")}`);
  }
}

/** A bad value as the error line shows it: never a key, nor a password inside an address. */
function shown(name: string, value: string): string {
  if (name === "JWT_PRIVATE_KEY" || name === "OIDC_CLIENT_SECRET") return "(hidden)";
  return JSON.stringify(value.replace(/(\/\/[^:/@]*:)[^@/]*@/, "$1***@"));
}

/**
 * The sender when MAIL_FROM is unset: the school's name, and a no-reply address at the host
 * people reach Gradecast by (PUBLIC_URL), never a made-up domain a reader could mistake for real.
 */
function mailSender(schoolName: string | undefined, publicUrl: string | undefined, port: number) {
  const host = new URL(publicUrl ?? `http://localhost:${port}`).hostname;
  const name = (schoolName ?? "Gradecast").replace(/["\\]/g, "");
  return `"${name}" <no-reply@${host}>`;
}

/** "MAT101=mat, POR12=por" as a map of course code to subject. */
function courseSubjects(text: string | undefined): Map<string, "mat" | "por"> {
  const map = new Map<string, "mat" | "por">();
  for (const pair of text ? text.split(",") : []) {
    const [code = "", subject] = pair.split("=").map((part) => part.trim());
    if (code && (subject === "mat" || subject === "por")) map.set(code, subject);
  }
  return map;
}

/** Parses the environment; throws a ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      return `${name}=${shown(name, env[name] ?? "")}: ${issue.message}`;
    });
    throw new ConfigError(problems);
  }
  const e = parsed.data;
  const oidcProblems = [
    ...(e.OIDC_ISSUER && !e.OIDC_CLIENT_ID ? ["OIDC_CLIENT_ID: must be set with OIDC_ISSUER"] : []),
    ...(e.OIDC_ISSUER && !e.PUBLIC_URL
      ? ["PUBLIC_URL: must be set with OIDC_ISSUER (the provider sends people back to it)"]
      : []),
    ...(!e.OIDC_ISSUER && e.LOCAL_PASSWORDS_OFF?.length
      ? ["LOCAL_PASSWORDS_OFF: needs OIDC_ISSUER, or nobody of those roles could sign in"]
      : []),
    ...(Boolean(e.OIDC_TEACHER_GROUPS?.length) !== Boolean(e.OIDC_GROUPS_CLAIM)
      ? ["OIDC_TEACHER_GROUPS and OIDC_GROUPS_CLAIM: set both or neither"]
      : []),
  ];
  if (oidcProblems.length > 0) throw new ConfigError(oidcProblems);
  const oidc: OidcConfig | undefined = e.OIDC_ISSUER
    ? {
        issuer: e.OIDC_ISSUER,
        clientId: e.OIDC_CLIENT_ID ?? "",
        clientSecret: e.OIDC_CLIENT_SECRET,
        name: e.OIDC_NAME ?? "your school's account",
        allowedDomains: (e.OIDC_ALLOWED_DOMAINS ?? []).map((d) => d.toLowerCase()),
        googleHd: e.OIDC_GOOGLE_HD?.toLowerCase(),
        allowedTenants: e.OIDC_ALLOWED_TENANTS ?? [],
        teacherGroups: e.OIDC_TEACHER_GROUPS ?? [],
        groupsClaim: e.OIDC_GROUPS_CLAIM,
        trustAmrMfa: e.OIDC_TRUST_AMR_MFA === "on",
      }
    : undefined;
  return {
    port: e.PORT,
    defaultLocale: e.DEFAULT_LOCALE,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    publicUrl: e.PUBLIC_URL?.replace(/\/$/, ""),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? mailSender(e.SCHOOL_NAME, e.PUBLIC_URL, e.PORT),
    contactEmail: e.CONTACT_EMAIL,
    schoolName: e.SCHOOL_NAME,
    jwtPrivateKey: e.JWT_PRIVATE_KEY,
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    analyticsEmbedUrl: e.ANALYTICS_EMBED_URL,
    modelSchool: e.MODEL_SCHOOL ?? null,
    modelMinOutcomes: e.MODEL_MIN_OUTCOMES,
    modelDataDir: path.resolve(e.MODEL_DATA_DIR),
    teacherSignup: e.TEACHER_SIGNUP,
    legalBasis: e.LEGAL_BASIS,
    digitalConsentAge: e.DIGITAL_CONSENT_AGE,
    optionalQuestions: e.OPTIONAL_QUESTIONS,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    rateLimits: e.RATE_LIMITS === "on",
    invitationEmailsPerDay: e.INVITATION_EMAILS_PER_DAY,
    dpoContact: e.DPO_CONTACT,
    accountDeletionGraceDays: e.ACCOUNT_DELETION_GRACE_DAYS,
    oidc,
    localPasswordsOff: e.LOCAL_PASSWORDS_OFF ?? [],
    oneRosterSubjects: courseSubjects(e.ONEROSTER_SUBJECTS),
  };
}
