// Compiles the server (apps/server/src, packages/contract, packages/model) into one ES module,
// apps/server/dist/main.mjs, so that `npm start` runs plain JavaScript: loading the TypeScript
// sources through tsx's loader costs about a second at every start on a 2-core machine. Packages
// from node_modules stay outside the bundle. Rebuilt (in about 0.1 s) when a source it was made
// from changed size or time or is gone; `npm start` falls back to tsx if esbuild cannot be found.
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const entry = path.join(root, "apps/server/src/main.ts");
export const serverBundle = path.join(root, "apps/server/dist/main.mjs");
const stampFile = `${serverBundle}.sources.json`;

/** Size and modification time of each input, as recorded at the last build. */
function fingerprint(files) {
  return Object.fromEntries(
    files.map((file) => {
      const s = statSync(path.join(root, file));
      return [file, `${s.size}:${s.mtimeMs}`];
    }),
  );
}

function isFresh() {
  if (!existsSync(serverBundle) || !existsSync(stampFile)) return false;
  try {
    const recorded = JSON.parse(readFileSync(stampFile, "utf8"));
    const now = fingerprint(Object.keys(recorded));
    return Object.entries(recorded).every(([file, print]) => now[file] === print);
  } catch {
    return false;
  }
}

async function loadEsbuild() {
  // esbuild comes with tsx (a dependency of the server); resolved through it.
  const require = createRequire(import.meta.url);
  const tsx = require.resolve("tsx/package.json", { paths: [path.join(root, "apps/server")] });
  const esbuild = createRequire(tsx).resolve("esbuild");
  return import(pathToFileURL(esbuild).href);
}

/** Builds the bundle when it is missing or stale; false when it cannot be built. */
export async function ensureServerBuilt() {
  if (isFresh()) return true;
  try {
    const { build } = await loadEsbuild();
    const outDir = path.dirname(serverBundle);
    const result = await build({
      absWorkingDir: root,
      entryPoints: [entry],
      outfile: serverBundle,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      sourcemap: "linked",
      metafile: true,
      logLevel: "error",
      // Written here, each file beside its place and renamed into it: a build stopped half-way
      // leaves only a .partial file (removed at the next start), never half a bundle.
      write: false,
      plugins: [
        {
          name: "gradecast-server",
          setup(b) {
            // Only the workspace's own sources are bundled; packages load from node_modules.
            b.onResolve({ filter: /^[^./]/ }, (args) =>
              args.path.startsWith("@gradecast/") || args.path.startsWith("node:")
                ? undefined
                : { path: args.path, external: true },
            );
            // Files found beside a source (the model artifact, the password list, the
            // migrations, the web build) are found from the bundle as they were from it.
            b.onLoad({ filter: /\.ts$/ }, async (args) => {
              let contents = await readFile(args.path, "utf8");
              if (contents.includes("import.meta.url")) {
                const rel = path.relative(outDir, args.path).split(path.sep).join("/");
                contents = contents.replaceAll(
                  "import.meta.url",
                  `new URL(${JSON.stringify(rel)}, import.meta.url).href`,
                );
              }
              return { contents, loader: "ts" };
            });
          },
        },
      ],
    });
    mkdirSync(outDir, { recursive: true });
    for (const file of result.outputFiles) {
      const partial = `${file.path}.${process.pid}.partial`;
      writeFileSync(partial, file.contents);
      renameSync(partial, file.path);
    }
    const inputs = Object.keys(result.metafile.inputs).map((f) =>
      path.relative(root, path.resolve(root, f)),
    );
    writeFileSync(stampFile, JSON.stringify(fingerprint(inputs)));
    return true;
  } catch (error) {
    process.stderr.write(`Could not compile the server (${error.message}); running it with tsx.\n`);
    return false;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!(await ensureServerBuilt())) process.exit(1);
}
