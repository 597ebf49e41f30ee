// Import boundaries, checked by `npm run boundaries` in CI (.ci/run). Type-only imports count:
// a type cycle couples files as much as a runtime one when either changes.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-cycle",
      comment: "No import cycle, type-only imports included.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "contract-imports-no-app",
      comment: "The contract is the one source both apps read: it imports nothing of theirs.",
      severity: "error",
      from: { path: "^packages/contract/" },
      to: { path: "^(apps|packages/model|e2e|bench|scripts)/" },
    },
    {
      name: "model-imports-no-app",
      comment: "The model runs on its own (CLI, benches): it imports no app.",
      severity: "error",
      from: { path: "^packages/model/" },
      to: { path: "^(apps|e2e|bench|scripts)/" },
    },
    {
      name: "apps-apart",
      comment: "The server and the web app share only the contract.",
      severity: "error",
      from: { path: "^apps/(server|web)/" },
      to: { path: "^apps/(server|web)/", pathNot: "^apps/$1/" },
    },
    {
      name: "web-no-upward",
      comment:
        "The web app's layers, bottom up: api, auth, components, i18n; features; pages; router. A layer imports only those below it.",
      severity: "error",
      from: { path: "^apps/web/src/(api|auth|components|i18n)/" },
      to: { path: "^apps/web/src/(features|pages|router\\.tsx|main\\.tsx)" },
    },
    {
      name: "web-features-no-pages",
      comment: "A feature is used by pages, never the other way round.",
      severity: "error",
      from: { path: "^apps/web/src/features/" },
      to: { path: "^apps/web/src/(pages|router\\.tsx|main\\.tsx)" },
    },
    {
      name: "web-pages-no-router",
      severity: "error",
      from: { path: "^apps/web/src/pages/" },
      to: { path: "^apps/web/src/(router\\.tsx|main\\.tsx)" },
    },
    {
      name: "server-shared-no-feature",
      comment:
        "Shared server modules (db, mail, limits, audit, csv, jobs) know no feature: features build on them.",
      severity: "error",
      from: { path: "^apps/server/src/(db|mail|limits|audit|csv|jobs)/" },
      to: {
        path: "^apps/server/src/(admin|alerts|analytics|auth|classes|consent|evaluation|job-status|model|oneroster|prediction|privacy|record|reports|students|users)/",
      },
    },
    {
      name: "no-feature-internals",
      comment:
        "A feature's repository (queries) is its own: another feature goes through its service. A table several features use has its repository in db/ (db/users.ts).",
      severity: "error",
      from: { path: "^apps/server/src/([^/]+)/" },
      to: {
        path: "^apps/server/src/([^/]+)/[a-z-]*queries\\.ts$",
        pathNot: "^apps/server/src/$1/",
      },
    },
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
