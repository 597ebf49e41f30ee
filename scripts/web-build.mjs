// Builds the web app when apps/web/dist is missing or older than its sources. Staleness is a
// hash of the sources (not file times, which a fresh clone resets), stored beside the build with
// each source's size and time: a start whose sources all keep theirs skips reading and hashing
// them, and one whose times changed but whose contents did not (a checkout) only re-hashes.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const web = path.join(root, "apps/web");
const dist = path.join(web, "dist");
const stampFile = path.join(dist, ".source-hash");
const sources = [
  path.join(web, "src"),
  path.join(web, "public"),
  path.join(web, "index.html"),
  path.join(web, "vite.config.ts"),
  path.join(web, "package.json"),
  path.join(root, "packages/contract/src"),
];

function walk(entry, out) {
  if (!existsSync(entry)) return out;
  if (statSync(entry).isDirectory()) {
    for (const name of readdirSync(entry).sort()) walk(path.join(entry, name), out);
  } else if (!entry.endsWith(".test.ts")) {
    out.push(entry);
  }
  return out;
}

export function sourceHash() {
  const hash = createHash("sha256");
  for (const file of sources.flatMap((s) => walk(s, []))) {
    hash.update(path.relative(root, file));
    hash.update(readFileSync(file));
  }
  return hash.digest("hex");
}

function fingerprint() {
  return Object.fromEntries(
    sources
      .flatMap((s) => walk(s, []))
      .map((file) => {
        const st = statSync(file);
        return [path.relative(root, file), `${st.size}:${st.mtimeMs}`];
      }),
  );
}

function readStamp() {
  if (!existsSync(stampFile)) return null;
  const text = readFileSync(stampFile, "utf8").trim();
  try {
    const stamp = JSON.parse(text);
    return typeof stamp?.hash === "string" ? stamp : null;
  } catch {
    return { hash: text }; // a stamp of an earlier version: the hash alone
  }
}

const sameFiles = (a, b) =>
  Object.keys(a).length === Object.keys(b).length &&
  Object.entries(a).every(([file, print]) => b[file] === print);

export function ensureWebBuilt({ quiet = false } = {}) {
  const built = existsSync(path.join(dist, "index.html"));
  const stamp = readStamp();
  const files = fingerprint();
  if (built && stamp && sameFiles(files, stamp.files ?? {})) return false;
  const hash = sourceHash();
  if (built && stamp?.hash === hash) {
    writeFileSync(stampFile, JSON.stringify({ hash, files }));
    return false;
  }
  if (!quiet) process.stdout.write("Building the web app (first start or sources changed)...\n");
  const result = spawnSync("npm", ["run", "build", "-w", "apps/web", "--silent"], {
    cwd: root,
    stdio: quiet ? "ignore" : "inherit",
  });
  if (result.status !== 0) {
    process.stderr.write("The web app failed to build.\n");
    process.exit(result.status ?? 1);
  }
  writeFileSync(stampFile, JSON.stringify({ hash, files }));
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureWebBuilt();
