import { createPrivateKey } from "node:crypto";
import path from "node:path";
import { defaultContactEmail } from "@gradecast/contract/site";
import { z } from "zod";

// Every environment variable Gradecast reads, parsed once at start. A bad value stops the
// process with one line per variable (see main.ts); .env.example documents each of them.
const port = z.coerce
  .number({ error: "must be a whole number from 0 to 65535" })
  .int({ error: "must be a whole number from 0 to 65535" })
  .min(0, { error: "must be a whole number from 0 to 65535" })
  .max(65535, { error: "must be a whole number from 0 to 65535" });

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

function isEd25519PrivateKey(pem: string): boolean {
  try {
    return createPrivateKey(pem).asymmetricKeyType === "ed25519";
  } catch {
    return false;
  }
}

export const envSchema = z.object({
  PORT: z.preprocess(emptyToUndefined, port.default(3000)),
  HOST: z.preprocess(emptyToUndefined, z.string().default("0.0.0.0")),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default("./data")),
  DATABASE_URL: optional(url(["postgres", "postgresql"])),
  DATABASE_POOL_SIZE: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: "must be a whole number from 1 to 100" })
      .int()
      .min(1)
      .max(100)
      .default(10),
  ),
  PUBLIC_URL: optional(url(["http", "https"])),
  SMTP_URL: optional(url(["smtp", "smtps"])),
  MAIL_FROM: z.preprocess(
    emptyToUndefined,
    z.string().default("Gradecast <no-reply@gradecast.local>"),
  ),
  CONTACT_EMAIL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .trim()
      .pipe(z.email({ error: "must be an email address" }))
      .default(defaultContactEmail),
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
  TEACHER_SIGNUP: z.preprocess(
    emptyToUndefined,
    z.enum(["open", "approval"], { error: "must be open or approval" }).default("open"),
  ),
  TRUST_PROXY: z.preprocess(
    emptyToUndefined,
    z.enum(["true", "false"], { error: "must be true or false" }).default("false"),
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
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  databasePoolSize: number;
  publicUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Shown on the Contact page (GET /api/site). */
  contactEmail: string;
  jwtPrivateKey: string | undefined;
  redisUrl: string | undefined;
  /** Start of every rate-limit key in Redis: deployments sharing one Redis set their own. */
  redisKeyPrefix: string;
  analyticsEmbedUrl: string | undefined;
  teacherSignup: "open" | "approval";
  trustProxy: boolean;
  logLevel: string;
  rateLimits: boolean;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join("\n")}`);
  }
}

/** A bad value as the error line shows it: never a key, nor a password inside an address. */
function shown(name: string, value: string): string {
  if (name === "JWT_PRIVATE_KEY") return "(hidden)";
  return JSON.stringify(value.replace(/(\/\/[^:/@]*:)[^@/]*@/, "$1***@"));
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
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    publicUrl: e.PUBLIC_URL?.replace(/\/$/, ""),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    contactEmail: e.CONTACT_EMAIL,
    jwtPrivateKey: e.JWT_PRIVATE_KEY,
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    analyticsEmbedUrl: e.ANALYTICS_EMBED_URL,
    teacherSignup: e.TEACHER_SIGNUP,
    trustProxy: e.TRUST_PROXY === "true",
    logLevel: e.LOG_LEVEL,
    rateLimits: e.RATE_LIMITS === "on",
  };
}
