import { stdin, stdout } from "node:process";
import { parseArgs } from "node:util";
import { emailSchema } from "@gradecast/contract/auth";
import { ConfigError, loadConfig } from "../src/config.ts";
import { lockIfEmbedded } from "../src/db/data-dir-lock.ts";
import { openMigrated } from "../src/db/database.ts";
import { findUserByEmail } from "../src/db/users.ts";
import { AdminInputError, createOrPromoteAdmin } from "../src/users/admin.ts";

// npm run admin:create -- --email E --name N [--role teacher] [--reset-password]
// Creates an admin account (a teacher with --role teacher, the way teachers come to exist under
// TEACHER_SIGNUP=closed), or promotes an existing account to admin (its password kept, or
// replaced with --reset-password, which also signs the account out everywhere). The password
// comes from ADMIN_PASSWORD or a hidden prompt. Uses the same configuration as the
// server (DATA_DIR or DATABASE_URL) and migrates first. On embedded PGlite it refuses to run
// while a server has the same DATA_DIR open.
const usage =
  "Usage: npm run admin:create -- --email you@school.org --name 'Your Name' [--role admin|teacher] [--reset-password]";

function fail(message: string): never {
  process.stderr.write(`admin:create: ${message}\n`);
  process.exit(1);
}

async function promptHidden(question: string): Promise<string> {
  if (!stdin.isTTY) {
    throw new AdminInputError(
      "no password: set ADMIN_PASSWORD, or run the command in a terminal to be asked for one.",
    );
  }
  stdout.write(question);
  stdin.setRawMode(true);
  stdin.resume();
  stdin.setEncoding("utf8");
  return new Promise((resolve) => {
    let value = "";
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === "\r" || ch === "\n") {
          stdin.setRawMode(false);
          stdin.pause();
          stdin.off("data", onData);
          stdout.write("\n");
          resolve(value);
          return;
        }
        if (ch === "\u0003") {
          stdout.write("\n");
          process.exit(130);
        }
        if (ch === "\u007f" || ch === "\b") value = value.slice(0, -1);
        else value += ch;
      }
    };
    stdin.on("data", onData);
  });
}

async function main() {
  let args: {
    email?: string | undefined;
    name?: string | undefined;
    "reset-password"?: boolean | undefined;
    role?: string | undefined;
  };
  try {
    args = parseArgs({
      options: {
        email: { type: "string" },
        name: { type: "string" },
        "reset-password": { type: "boolean" },
        role: { type: "string" },
      },
      strict: true,
    }).values;
  } catch (error) {
    fail(`${(error as Error).message}\n${usage}`);
  }
  if (!args.email) fail(`--email is required.\n${usage}`);
  const role = args.role ?? "admin";
  if (role !== "admin" && role !== "teacher") fail(`--role must be admin or teacher.\n${usage}`);
  const email = emailSchema.safeParse(args.email);
  if (!email.success) fail(`--email: ${email.error.issues[0]?.message}`);

  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }

  // One line, the action first: what a newcomer who left `npm start` running must do.
  const release = await lockIfEmbedded(config, (pid) =>
    fail(
      `Stop the server first: a Gradecast server (process ${pid}) has the embedded database in ${config.dataDir} open, and a second process could corrupt it. Run this command, then start the server again (or use DATABASE_URL on PostgreSQL, where both can run at once).`,
    ),
  );

  const database = await openMigrated(config, 2);
  try {
    const existing = await findUserByEmail(database.db, email.data);
    const resetPassword = args["reset-password"] === true;
    let password: string | undefined;
    if (!existing || resetPassword) {
      if (!existing && !args.name)
        throw new AdminInputError(`--name is required to create a new admin.\n${usage}`);
      password = process.env.ADMIN_PASSWORD;
      if (!password) {
        password = await promptHidden(
          existing
            ? "New password (8-128 characters): "
            : "Password for the new admin (8-128 characters): ",
        );
        const again = await promptHidden("Repeat the password: ");
        if (again !== password) {
          throw new AdminInputError("the two passwords differ; nothing was changed.");
        }
      }
    }
    const result = await createOrPromoteAdmin(database.db, {
      email: email.data,
      name: args.name ?? existing?.name ?? "",
      password,
      resetPassword,
      role,
    });
    const what = result.created
      ? `Created ${role}`
      : result.promoted
        ? `Promoted to ${role}`
        : `Already ${result.user.role === "admin" ? "an admin" : "a teacher"}:`;
    const kept = result.created
      ? ""
      : result.passwordReset
        ? "; new password set, signed out everywhere"
        : "; password kept (--reset-password sets a new one)";
    stdout.write(
      `${what} ${result.user.email} (${result.user.uid}) in ${database.location}${kept}\n`,
    );
  } catch (error) {
    if (!(error instanceof AdminInputError)) throw error;
    process.stderr.write(`admin:create: ${error.message}\n`);
    process.exitCode = 1;
  } finally {
    await database.close();
    release();
  }
}

main().catch((error) => {
  process.stderr.write(`admin:create failed: ${(error as Error).message}\n`);
  process.exit(1);
});
