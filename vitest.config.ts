import os from "node:os";
import { defineConfig } from "vitest/config";

// Four projects: fast unit tests, component tests of the web forms (Testing Library in
// happy-dom), API tests through app.inject against a real database (PGlite, and PostgreSQL when
// TEST_DATABASE_URL is set), and browser tests in Chromium. See docs/testing.md.
export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one file at a time on a 2-core
    // machine, though most API files spend much of their time waiting on a database or a child
    // process. Two at least keeps both cores busy (docs/testing.md has the figures).
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    projects: [
      {
        test: {
          name: "unit",
          include: [
            "packages/*/src/**/*.test.ts",
            "apps/*/src/**/*.test.ts",
            "scripts/**/*.test.ts",
          ],
          exclude: ["**/*.api.test.ts", "**/node_modules/**"],
          // The model's reference checks take half a second alone and ten on a loaded 2-core
          // machine: the limit is for a hung test, not a measure of speed.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: "web",
          include: ["apps/web/src/**/*.test.tsx"],
          environment: "happy-dom",
          setupFiles: ["apps/web/src/test/setup.ts"],
          // A whole page typed into by user-event: seconds, not milliseconds, on a busy machine.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: "api",
          include: ["apps/server/test/**/*.test.ts"],
          setupFiles: ["apps/server/test/support/setup/cheap-hashes.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["e2e/**/*.test.ts"],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          // One more try for a browser test that fails once: the screen-by-screen axe and
          // keyboard walk failed one CI run in three (its problems are now printed); a test
          // that fails twice still fails.
          retry: 1,
        },
      },
    ],
  },
});
