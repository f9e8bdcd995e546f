import { defineConfig } from "tsup";

// ESM and CommonJS builds with their types; dependencies stay external (they are installed beside it).
export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm", "cjs"],
  dts: true,
  sourcemap: true,
  clean: true,
  target: "node20",
  outDir: process.env.CLIENT_OUT_DIR ?? "dist",
  tsconfig: "tsconfig.build.json",
});
