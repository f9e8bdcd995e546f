/**
 * One jest run for the whole workspace, in three projects that share its workers (`maxWorkers`):
 * - unit: the tests beside their modules (`src/**`): pure logic, and a few modules' own tests on the real servers;
 * - integration: each package's and service's `test/` folder, and the root's checks: real Postgres, RabbitMQ,
 *   Redis and nodes, each worker on a database of its own (jest.worker-environment.ts);
 * - e2e: the root's stories, each on a stack of its own (testkit's startStack: database, RabbitMQ prefix, Redis
 *   key prefix, chains on free ports), so that any two run at once.
 */
const transform = { "^.+\\.ts$": ["@swc/jest", { jsc: { target: "es2022", parser: { syntax: "typescript" } }, module: { type: "commonjs" } }] };

const project = (displayName, testMatch, testPathIgnorePatterns = []) => ({
  displayName,
  testEnvironment: "<rootDir>/jest.worker-environment.ts",
  rootDir: __dirname,
  testMatch,
  testPathIgnorePatterns: ["/node_modules/", ...testPathIgnorePatterns],
  transform,
  modulePathIgnorePatterns: ["<rootDir>/.devnet/"],
});

module.exports = {
  projects: [
    project("unit", ["<rootDir>/{packages,services}/*/src/**/*.test.ts", "<rootDir>/test/{fuzz,faults}/*.test.ts"], ["\\.e2e\\.test\\.ts$"]),
    project("integration", ["<rootDir>/{packages,services}/*/test/**/*.test.ts", "<rootDir>/test/*.test.ts"], ["\\.e2e\\.test\\.ts$"]),
    // The fault run is `pnpm test:faults` (jest.faults.config.js); its pure parts' tests are unit tests.
    project("e2e", ["<rootDir>/test/*.e2e.test.ts"]),
  ],
  // Two cores: most of an end-to-end story's time is spent waiting for blocks and services, so a third worker
  // keeps the cores busy. JEST_MAX_WORKERS sizes it for another machine.
  maxWorkers: Number(process.env.JEST_MAX_WORKERS ?? 3),
  reporters: ["default", "<rootDir>/test/summary-reporter.js"],
  globalSetup: "<rootDir>/jest.global-setup.ts",
  testTimeout: 60_000,
};
