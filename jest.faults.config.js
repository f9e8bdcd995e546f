/** `pnpm test:faults`: the fault run of test/faults alone, after `pnpm test` (see jest.config.js). */
const base = require("./jest.config");

module.exports = {
  ...base,
  roots: ["<rootDir>/test/faults"],
  testMatch: ["**/*.e2e.test.ts"],
  testPathIgnorePatterns: ["/node_modules/"],
};
