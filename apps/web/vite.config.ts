import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The web app: built into apps/web/dist and served by the server from the same origin. React and
// the router are one vendor chunk shared by every page; ECharts stays in the chunks of the pages
// that chart (it is only ever imported by them, lazily), as two chunks loaded together: ECharts
// itself and ZRender, its drawing library (one 575 kB chunk set off Vite's 500 kB warning).
export default defineConfig({
  plugins: [react()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    manifest: true,
    sourcemap: false,
    target: "es2022",
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
