// Import boundaries, checked by `npm run boundaries` in CI (.ci/run). Type-only imports count:
// a type cycle couples files as much as a runtime one when either changes.
/**
 * A rule that fails the check: a file matching `from` imports one matching `to`. Each side is a
 * path pattern, or dependency-cruiser's own condition object where a rule needs more.
 */
const forbid = (name, comment, from, to) => ({
  name,
  comment,
  severity: "error",
  from: typeof from === "string" ? { path: from } : from,
  to: typeof to === "string" ? { path: to } : to,
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    forbid("no-cycle", "No import cycle, type-only imports included.", {}, { circular: true }),
    forbid(
      "contract-imports-no-app",
      "The contract is the one source both apps read: it imports nothing of theirs.",
      "^packages/contract/",
      "^(apps|packages/model|e2e|bench|scripts)/",
    ),
    forbid(
      "model-imports-no-app",
      "The model runs on its own (CLI, benches): it imports no app.",
      "^packages/model/",
      "^(apps|e2e|bench|scripts)/",
    ),
    forbid(
      "apps-apart",
      "The server and the web app share only the contract.",
      "^apps/(server|web)/",
      {
        path: "^apps/(server|web)/",
        pathNot: "^apps/$1/",
      },
    ),
    forbid(
      "web-no-upward",
      "The web app's layers, bottom up: api, auth, components, i18n; features; pages; router. A layer imports only those below it.",
      "^apps/web/src/(api|auth|components|i18n)/",
      "^apps/web/src/(features|pages|router\\.tsx|main\\.tsx)",
    ),
    forbid(
      "web-features-no-pages",
      "A feature is used by pages, never the other way round.",
      "^apps/web/src/features/",
      "^apps/web/src/(pages|router\\.tsx|main\\.tsx)",
    ),
    forbid(
      "web-pages-no-router",
      "A page is used by the router, never the other way round.",
      "^apps/web/src/pages/",
      "^apps/web/src/(router\\.tsx|main\\.tsx)",
    ),
    forbid(
      "server-shared-no-feature",
      "Shared server modules (db, mail, limits, audit, csv, jobs) know no feature: features build on them.",
      "^apps/server/src/(db|mail|limits|audit|csv|jobs)/",
      "^apps/server/src/(admin|alerts|analytics|auth|classes|consent|evaluation|job-status|model|oneroster|prediction|privacy|record|reports|students|users)/",
    ),
    forbid(
      "no-feature-internals",
      "A feature's repository (queries) is its own: another feature goes through its service. A table several features use has its repository in db/ (db/users.ts).",
      "^apps/server/src/([^/]+)/",
      { path: "^apps/server/src/([^/]+)/[a-z-]*queries\\.ts$", pathNot: "^apps/server/src/$1/" },
    ),
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.base.json" },
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)node_modules/|/dist/" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "types", "default"],
    },
  },
};
