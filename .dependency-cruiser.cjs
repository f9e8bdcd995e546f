/**
 * No import circle anywhere in the tree: test/import-circles.test.ts cruises it with this.
 * tsPreCompilationDeps counts `import type` as well: a circle of types still makes two modules that
 * cannot be read, moved or tested apart (each of the circles issue 24 found closed through one).
 */
module.exports = {
  forbidden: [{ name: "no-circular", severity: "error", from: {}, to: { circular: true } }],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    // The workspace's packages are followed through their node_modules links (to packages/*/src), everything else not.
    doNotFollow: { path: "node_modules" },
    exclude: { path: ["node_modules", "/dist/", "packages/contracts/artifacts", "\\.devnet", "coverage"] },
  },
};
