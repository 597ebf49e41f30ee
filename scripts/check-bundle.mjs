// The first screen's JavaScript budget (issue 10): what /login loads, gzipped, at most 100 KB.
// Reads Vite's manifest: the entry's static imports plus the login page's lazy chunk and its own
// static imports, and the English message catalogue's public part (issue 33: the page's text, its
// own chunk; the second part, catalogue-en-app, loads with the pages after sign-in).
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dist = path.join(root, "apps/web/dist");
const budgetKb = 100;
const manifest = JSON.parse(readFileSync(path.join(dist, ".vite/manifest.json"), "utf8"));

const files = new Set();
function addWithImports(key) {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return;
  files.add(chunk.file);
  for (const dep of chunk.imports ?? []) addWithImports(dep);
}
const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
addWithImports(entry);
const login = Object.keys(manifest).find((k) => /pages\/login\.tsx$/.test(k));
if (login) addWithImports(login);
const english = Object.keys(manifest).find((k) => /i18n\/catalogue-en\.ts$/.test(k));
if (english) addWithImports(english);

let total = 0;
for (const file of files) {
  if (!file.endsWith(".js")) continue;
  const size = gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
  total += size;
  console.log(`  ${(size / 1024).toFixed(1).padStart(7)} KB  ${file}`);
}
console.log(
  `First screen (/login) JavaScript: ${(total / 1024).toFixed(1)} KB gzipped (budget ${budgetKb} KB)`,
);
if (!login) console.log("warning: no login page chunk found in the manifest");
if (total > budgetKb * 1024) process.exit(1);
