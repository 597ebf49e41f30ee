import { fileURLToPath } from "node:url";
import { parse } from "@formatjs/icu-messageformat-parser";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

// Message catalogues (apps/web/src/locales and packages/contract/src/locales, issue 33) are
// parsed here, at build time: each ICU message becomes its AST, still JSON, so the browser gets
// intl-messageformat without the parser (the alias below swaps it for its parser-less entry,
// which only has the AST's types). A message that does not parse fails the build.
function precompiledMessages(): Plugin {
  return {
    name: "gradecast-precompiled-messages",
    enforce: "pre",
    transform(code, id) {
      if (!/\/locales\/[^/]+\/[^/]+\.json$/.test(id)) return undefined;
      const messages = JSON.parse(code) as Record<string, string>;
      const parsed = Object.fromEntries(
        Object.entries(messages).map(([key, text]) => [key, parse(text)]),
      );
      return { code: JSON.stringify(parsed), map: null };
    },
  };
}

// The web app: built into apps/web/dist and served by the server from the same origin. React and
// the router are one vendor chunk shared by every page; ECharts stays in the chunks of the pages
// that chart (it is only ever imported by them, lazily), as two chunks loaded together: ECharts
// itself and ZRender, its drawing library (one 575 kB chunk set off Vite's 500 kB warning).
export default defineConfig({
  plugins: [precompiledMessages(), react()],
  resolve: {
    // Messages arrive parsed (above): intl-messageformat takes the parser-less entry of the ICU
    // parser, which holds only the AST's types.
    alias: [
      {
        find: /^@formatjs\/icu-messageformat-parser$/,
        replacement: fileURLToPath(
          new URL(
            "../../node_modules/@formatjs/icu-messageformat-parser/no-parser.js",
            import.meta.url,
          ),
        ),
      },
    ],
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    manifest: true,
    sourcemap: false,
    target: "es2022",
    // Every browser the app supports (es2022: Safari 17, Firefox 115) preloads modules itself.
    modulePreload: { polyfill: false },
    rollupOptions: {
      // zod's own sources carry explanatory comments beside @__PURE__ marks, which Rollup reports
      // as INVALID_ANNOTATION and drops: nothing of the build changes, so that one notice about
      // that one package is not printed (every other warning still is).
      onwarn(warning, warn) {
        if (warning.code === "INVALID_ANNOTATION" && /node_modules\/zod\//.test(warning.id ?? "")) {
          return;
        }
        warn(warning);
      },
      output: {
        manualChunks(id: string) {
          if (!id.includes("node_modules")) return undefined;
          if (/node_modules\/(react|react-dom|scheduler|react-router)\//.test(id)) return "react";
          if (/node_modules\/@tanstack\//.test(id)) return "query";
          if (/node_modules\/echarts\//.test(id)) return "echarts";
          if (/node_modules\/zrender\//.test(id)) return "zrender";
          return undefined;
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      "/api": "http://localhost:3000",
      "/report": "http://localhost:3000",
    },
  },
});
