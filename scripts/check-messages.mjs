// The message catalogues' check (issue 33), run by .ci/run and `npm run -s messages`:
//   - every key is in every language (apps/web/src/locales and packages/contract/src/locales,
//     one folder per language, one JSON file per area), and in one file only;
//   - every message parses as ICU, and its translations use the same arguments;
//   - no key is unused: each is written literally, in quotes, in the sources (apps/*/src,
//     packages/contract/src; tests do not count), or starts with one of the dynamic prefixes.
// `node scripts/check-messages.mjs [root]` checks another tree (its test does).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parse, TYPE } from "@formatjs/icu-messageformat-parser";

const root = path.resolve(
  process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), ".."),
);
const catalogues = ["apps/web/src/locales", "packages/contract/src/locales"];
const languages = ["en", "pt-PT"];
const sourceDirs = ["apps/web/src", "apps/server/src", "packages/contract/src"];

// Keys built in code rather than written out: the prefix, and where and why.
const dynamicPrefixes = [
  // apps/server/src/i18n/translate.ts finds an API message, a field message and a CSV header by
  // its English text (contract messages.ts, the zod schemas' messages, the CSV column lists),
  // so each of these areas is read whole; packages/contract/src/i18n.test.ts checks they match.
  "messages.",
  "fields.",
  "csv.",
  // One per question, section and answer of contract questionnaire.ts (the same test checks
  // each question has its entries).
  "questionnaire.",
  // The privacy notice: one per registry entry's title, purpose, who sees it and field, and per
  // retention category (contract personal-data.ts; apps/server/src/privacy/service.ts builds
  // them, and contract privacy-notice.test.ts checks each has its entries).
  "privacy.",
  // The audit log's action, detail and value labels (contract admin.ts; apps/web
  // pages/admin-audit.tsx builds them, and contract i18n.test.ts checks each has its entry).
  "audit.",
];

const problems = [];

function walk(dir, out = []) {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir).sort()) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) {
      if (name !== "node_modules" && name !== "locales") walk(file, out);
    } else if (/\.(ts|tsx|mjs|js)$/.test(name) && !/\.test\.tsx?$/.test(name)) {
      out.push(file);
    }
  }
  return out;
}

/** The arguments a message uses, for comparing a translation with the English. */
function argumentsOf(elements, into = new Set()) {
  for (const el of elements) {
    if (el.type === TYPE.literal || el.type === TYPE.pound) continue;
    if (el.type === TYPE.tag) {
      into.add(`<${el.value}>`);
      argumentsOf(el.children, into);
      continue;
    }
    into.add(el.value);
    if (el.options) for (const option of Object.values(el.options)) argumentsOf(option.value, into);
  }
  return into;
}

const allKeys = new Map(); // key -> catalogue file (English)
for (const catalogue of catalogues) {
  const base = path.join(root, catalogue);
  if (!existsSync(base)) continue;
  const byLanguage = {};
  for (const language of languages) {
    const messages = new Map(); // key -> { file, text }
    const dir = path.join(base, language);
    const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".json")) : [];
    for (const name of files.sort()) {
      const rel = path.join(catalogue, language, name);
      let data;
      try {
        data = JSON.parse(readFileSync(path.join(dir, name), "utf8"));
      } catch (err) {
        problems.push(`${rel}: not JSON (${err.message})`);
        continue;
      }
      for (const [key, text] of Object.entries(data)) {
        if (typeof text !== "string") {
          problems.push(`${rel}: "${key}" is not a string`);
          continue;
        }
        const seen = messages.get(key);
        if (seen) problems.push(`${rel}: "${key}" is also in ${seen.file}`);
        messages.set(key, { file: rel, text });
      }
    }
    byLanguage[language] = messages;
  }
  const keys = new Set(languages.flatMap((l) => [...byLanguage[l].keys()]));
  for (const key of [...keys].sort()) {
    const parsed = {};
    for (const language of languages) {
      const entry = byLanguage[language].get(key);
      if (!entry) {
        problems.push(`${path.join(catalogue, language)}: "${key}" is missing`);
        continue;
      }
      try {
        parsed[language] = parse(entry.text);
      } catch (err) {
        problems.push(`${entry.file}: "${key}" is not a valid ICU message (${err.message})`);
      }
    }
    const [first, ...others] = languages;
    if (parsed[first]) {
      const expected = [...argumentsOf(parsed[first])].sort().join(", ");
      for (const language of others) {
        if (!parsed[language]) continue;
        const got = [...argumentsOf(parsed[language])].sort().join(", ");
        if (got !== expected) {
          problems.push(
            `${byLanguage[language].get(key).file}: "${key}" uses {${got}}, English uses {${expected}}`,
          );
        }
      }
    }
    allKeys.set(key, (byLanguage.en.get(key) ?? byLanguage[languages[1]].get(key)).file);
  }
}

const sources = sourceDirs
  .flatMap((dir) => walk(path.join(root, dir)))
  .map((file) => readFileSync(file, "utf8"))
  .join("\n");
const quoted = new Set([...sources.matchAll(/["'`]([\w.-]+)["'`]/g)].map((m) => m[1]));
for (const [key, file] of allKeys) {
  if (quoted.has(key) || dynamicPrefixes.some((prefix) => key.startsWith(prefix))) continue;
  problems.push(
    `${file}: "${key}" is not used (no source writes it; a built key needs its prefix in dynamicPrefixes)`,
  );
}

for (const problem of problems) console.error(problem);
console.log(
  `Messages: ${allKeys.size} keys in ${languages.join(" and ")}, ${problems.length} problem(s)`,
);
if (problems.length > 0) process.exit(1);
