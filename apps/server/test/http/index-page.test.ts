import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import { createTestDatabase } from "../support/helpers.ts";

// The web app's page names the deployment's language (DEFAULT_LOCALE) on its <html>, so a
// browser asking for no language Gradecast has gets the school's from the first paint.

const built = '<!doctype html>\n<html lang="en">\n  <head><title>Gradecast</title></head>\n</html>';

async function pageServedWith(env: Record<string, string>, url = "/classes/some-class") {
  const root = await mkdtemp(path.join(os.tmpdir(), "gradecast-index-"));
  const web = path.join(root, "dist");
  await mkdir(web, { recursive: true });
  await writeFile(path.join(web, "index.html"), built);
  const { database, drop } = await createTestDatabase("pglite");
  const app = await buildApp({
    config: loadConfig({ DATA_DIR: root, LOG_LEVEL: "silent", ...env }),
    database,
    logger: false,
    webDist: web,
  });
  try {
    const res = await app.inject({ method: "GET", url });
    return { status: res.statusCode, type: res.headers["content-type"], body: res.body };
  } finally {
    await app.close();
    await database.close();
    await drop();
    await rm(root, { recursive: true, force: true });
  }
}

describe("the web app's page and DEFAULT_LOCALE", () => {
  it("names pt-PT on the page of a Portuguese deployment", async () => {
    const page = await pageServedWith({ DEFAULT_LOCALE: "pt-PT" });
    expect(page.status).toBe(200);
    expect(page.type).toMatch(/^text\/html/);
    expect(page.body).toContain('<html lang="pt-PT" data-default-locale="pt-PT">');
    expect(page.body).toContain("<title>Gradecast</title>");
  });

  it("names English where the deployment sets no language", async () => {
    const page = await pageServedWith({});
    expect(page.body).toContain('<html lang="en" data-default-locale="en">');
  });

  it("names pt-PT on the /report page of a Portuguese deployment, as on every other page", async () => {
    const page = await pageServedWith({ DEFAULT_LOCALE: "pt-PT" }, "/report?token=x");
    expect(page.status).toBe(200);
    expect(page.type).toMatch(/^text\/html/);
    expect(page.body).toContain('<html lang="pt-PT" data-default-locale="pt-PT">');
  });
});
