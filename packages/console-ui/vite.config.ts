import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The api-gateway serves dist at /console under a CSP of script-src 'self'; style-src 'self':
// everything is emitted as files (no inline module preload polyfill, no inlined assets).
export default defineConfig({
  base: "/console/",
  plugins: [react()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 1024,
  },
  server: {
    // `pnpm --filter @sweep/console-ui dev` against a running `pnpm start`.
    proxy: { "/v1": "http://127.0.0.1:8080", "/console/api": "http://127.0.0.1:8080" },
  },
});
