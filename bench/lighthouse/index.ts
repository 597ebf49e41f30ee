// Lighthouse (desktop preset) on /login, /Home and /prediction with the system Chromium, against
// the real server on loopback. Prints performance, accessibility and best-practices scores
// (budgets: 95, 100, 100). A signed-in student's token is placed in localStorage first, so the
// app pages are measured as a user sees them.
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";
import puppeteer from "puppeteer-core";
import { chromiumPath, startServer } from "../../e2e/harness.ts";
import { benchAccount } from "../lib/accounts.ts";

const server = await startServer({ env: { RATE_LIMITS: "off" } });
const token = await benchAccount(server.url, "Bench Student");

const chrome = await chromeLauncher.launch({
  chromePath: chromiumPath(),
  chromeFlags: [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});
const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
const rows: string[] = [];
try {
  for (const route of ["/login", "/Home", "/prediction"]) {
    const page = await browser.newPage();
    if (route !== "/login") {
      await page.goto(`${server.url}/about`);
      await page.evaluate((token) => localStorage.setItem("token", token), token);
    }
    const result = await lighthouse(
      `${server.url}${route}`,
      {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        disableStorageReset: route !== "/login",
        onlyCategories: ["performance", "accessibility", "best-practices"],
      },
      desktopConfig,
      page,
    );
    const categories = result?.lhr.categories ?? {};
    const score = (k: string) => Math.round((categories[k]?.score ?? 0) * 100);
    rows.push(
      `${route.padEnd(12)} performance ${score("performance")}  accessibility ${score("accessibility")}  best practices ${score("best-practices")}`,
    );
    // What cost points, so that a score under budget says why.
    for (const key of ["accessibility", "best-practices"]) {
      for (const ref of categories[key]?.auditRefs ?? []) {
        const audit = result?.lhr.audits[ref.id];
        if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1) {
          const items = (audit.details as { items?: unknown[] } | undefined)?.items ?? [];
          rows.push(`    ${key}: ${ref.id} ${JSON.stringify(items).slice(0, 300)}`);
        }
      }
    }
    await page.close();
  }
} finally {
  await browser.disconnect();
  chrome.kill();
  await server.stop();
}
console.log(
  "Lighthouse, desktop preset (budgets: performance 95, accessibility 100, best practices 100)",
);
for (const row of rows) console.log(row);
