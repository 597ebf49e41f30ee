import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { type RunningServer, repoRoot } from "./server-process.ts";

export {
  freePort,
  localServerEnv,
  type RunningServer,
  repoRoot,
  startServer,
} from "./server-process.ts";

// Browser tests drive the real server process (PGlite on a fresh DATA_DIR, free port) with the
// system Chromium through playwright-core. Nothing is mocked.
export const artifactsDir = path.join(repoRoot, "test-results");

export function chromiumPath(): string {
  const candidates = [process.env.CHROME_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"];
  const found = candidates.find((c) => c && existsSync(c));
  if (!found) {
    throw new Error(
      "No Chromium found for the browser tests. Install Debian's package: apt-get install chromium (or set CHROME_PATH).",
    );
  }
  return found;
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
    ],
  });
}

export interface OpenPage {
  page: Page;
  browser: Browser;
  /** Console errors, uncaught page errors and CSP violations seen so far. */
  consoleErrors: string[];
  /** Messages of alert/confirm dialogs, which are accepted. */
  dialogs: string[];
  close(): Promise<void>;
}

export async function openPage(
  server: RunningServer,
  options: { viewport?: { width: number; height: number } } = {},
): Promise<OpenPage> {
  const browser = await launchBrowser();
  const context = await browser.newContext({
    baseURL: server.url,
    viewport: options.viewport ?? { width: 1366, height: 900 },
    acceptDownloads: true,
  });
  // A CSP violation the page recovers from (a refused probe) is not a console error by itself,
  // yet browsers and Lighthouse report it: surface it as one, so the console checks see it.
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI} in ${e.sourceFile}`);
    });
  });
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  const dialogs: string[] = [];
  const watch = (p: Page) => {
    p.on("console", (msg) => {
      if (msg.type() === "error") consoleErrors.push(msg.text());
    });
    p.on("pageerror", (err) => consoleErrors.push(String(err)));
    p.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.accept();
    });
  };
  watch(page);
  context.on("page", watch);
  return {
    page,
    browser,
    consoleErrors,
    dialogs,
    async close() {
      await browser.close();
    },
  };
}

export interface Mail {
  file: string;
  to: string;
  subject: string;
  text: string;
}

/** The messages the server wrote to DATA_DIR/outbox (no SMTP_URL), oldest first. */
export async function readOutbox(server: { outboxDir: string }): Promise<Mail[]> {
  if (!existsSync(server.outboxDir)) return [];
  const files = (await readdir(server.outboxDir)).filter((f) => f.endsWith(".eml"));
  const withTimes = await Promise.all(
    files.map(async (f) => ({ f, t: (await stat(path.join(server.outboxDir, f))).mtimeMs })),
  );
  withTimes.sort((a, b) => a.t - b.t || a.f.localeCompare(b.f));
  return Promise.all(
    withTimes.map(async ({ f }) => {
      const raw = await readFile(path.join(server.outboxDir, f), "utf8");
      return { file: f, ...parseEml(raw) };
    }),
  );
}

/** The newest verification code the server mailed to `email` (its outbox), once it is there. */
export async function mailedCode(server: { outboxDir: string }, email: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const mine = (await readOutbox(server)).filter(
      (m) => m.to.includes(email) && /verification code|código de verificação/i.test(m.subject),
    );
    const code = mine.at(-1)?.text.match(/\b(\d{6})\b/)?.[1];
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no verification code was emailed to ${email}`);
}

/** Enough of RFC 5322/MIME for the test mails: headers, and a text part in 7bit, QP or base64. */
export function parseEml(raw: string): { to: string; subject: string; text: string } {
  const normalized = raw.replace(/\r\n/g, "\n");
  const headerEnd = normalized.indexOf("\n\n");
  const headerText = normalized.slice(0, headerEnd).replace(/\n[ \t]+/g, " ");
  const header = (name: string) =>
    headerText.match(new RegExp(`^${name}:\\s*(.*)$`, "im"))?.[1]?.trim() ?? "";
  let body = normalized.slice(headerEnd + 2);
  let encoding = header("Content-Transfer-Encoding").toLowerCase();
  const boundary = header("Content-Type").match(/boundary="?([^";]+)"?/)?.[1];
  if (boundary) {
    const parts = body.split(`--${boundary}`);
    const textPart = parts.find((p) => /content-type:\s*text\/plain/i.test(p)) ?? parts[1] ?? "";
    const partHeaderEnd = textPart.indexOf("\n\n");
    encoding =
      textPart
        .slice(0, partHeaderEnd)
        .match(/content-transfer-encoding:\s*(\S+)/i)?.[1]
        ?.toLowerCase() ?? "7bit";
    body = textPart.slice(partHeaderEnd + 2);
  }
  if (encoding === "quoted-printable") {
    body = decodeQuotedPrintable(body);
  } else if (encoding === "base64") {
    body = Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  }
  return { to: header("To"), subject: decodeWords(header("Subject")), text: body.trim() };
}

/** Quoted-printable UTF-8 (a mail body, or a Q-encoded header word) as text. */
function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\n/g, "")
    .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

/** A header's RFC 2047 encoded words (=?UTF-8?Q?...?= or =?UTF-8?B?...?=) as text. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?utf-8\?([qb])\?([^?]*)\?=/gi, (_, kind: string, text: string) =>
      kind.toLowerCase() === "b"
        ? Buffer.from(text, "base64").toString("utf8")
        : decodeQuotedPrintable(text.replace(/_/g, " ")),
    );
}

export async function saveScreenshot(page: Page, name: string): Promise<string> {
  await mkdir(artifactsDir, { recursive: true });
  const file = path.join(artifactsDir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
