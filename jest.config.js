/** One jest run for the whole workspace; integration tests talk to the real servers. */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/packages", "<rootDir>/services", "<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  // The fault run is `pnpm test:faults` (jest.faults.config.js); its pure parts' tests stay here.
  testPathIgnorePatterns: ["/node_modules/", "<rootDir>/test/faults/[^/]*\\.e2e\\.test\\.ts$"],
  transform: { "^.+\\.ts$": ["@swc/jest", { jsc: { target: "es2022", parser: { syntax: "typescript" } }, module: { type: "commonjs" } }] },
  reporters: ["default", "<rootDir>/test/summary-reporter.js"],
  globalSetup: "<rootDir>/jest.global-setup.ts",
  testTimeout: 60_000,
  modulePathIgnorePatterns: ["<rootDir>/.devnet/"],
};
