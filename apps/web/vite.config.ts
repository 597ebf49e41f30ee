import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The web app: built into apps/web/dist and served by the server from the same origin. React and
// the router are one vendor chunk shared by every page; ECharts stays in the chunks of the pages
// that chart (it is only ever imported by them, lazily).
export default defineConfig({
  plugins: [react()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    manifest: true,
    sourcemap: false,
    target: "es2022",
    rollupOptions: {
      output: {
        manualChunks(id: string) {
          if (!id.includes("node_modules")) return undefined;
          if (/node_modules\/(react|react-dom|scheduler|react-router)\//.test(id)) return "react";
          if (/node_modules\/@tanstack\//.test(id)) return "query";
          if (/node_modules\/(echarts|zrender)\//.test(id)) return "echarts";
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
