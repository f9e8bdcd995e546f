/**
 * One jest run for the whole workspace, in four projects that share its workers (`maxWorkers`):
 * - unit: the tests beside their modules (`src/**`): pure logic, and a few modules' own tests on the real servers;
 * - integration: each package's and service's `test/` folder, and the root's checks: real Postgres, RabbitMQ,
 *   Redis and nodes, each worker on a database of its own (jest.worker-environment.ts);
 * - e2e: the root's stories, each on a stack of its own (testkit's startStack: database, RabbitMQ prefix, Redis
 *   key prefix, chains on ports of their own), so that any two run at once;
 * - stories on shared stacks: the stories that read only their own partner, on one stack per node kind that
 *   jest's process hosts while stories hold them (jest.shared-stacks.setup.ts, testkit's sharedStack).
 */
const transform = { "^.+\\.ts$": ["@swc/jest", { jsc: { target: "es2022", parser: { syntax: "typescript" } }, module: { type: "commonjs" } }] };

const project = (displayName, testMatch, testPathIgnorePatterns = [], hooks = {}) => ({
  displayName,
  testEnvironment: "<rootDir>/jest.worker-environment.ts",
  rootDir: __dirname,
  testMatch,
  testPathIgnorePatterns: ["/node_modules/", ...testPathIgnorePatterns],
  transform,
  modulePathIgnorePatterns: ["<rootDir>/.devnet/"],
  ...hooks,
});

// Each reads only its own partner, never restarts a service or touches the chain beyond its own accounts
// (docs/decisions.md says why the other stories keep stacks of their own).
const SHARED_STACK_STORIES = ["sweeps", "partner-sdk", "console", "sweep-policies"];

module.exports = {
  projects: [
    project("unit", ["<rootDir>/{packages,services}/*/src/**/*.test.ts", "<rootDir>/test/{fuzz,faults}/*.test.ts"], ["\\.e2e\\.test\\.ts$"]),
    project("integration", ["<rootDir>/{packages,services}/*/test/**/*.test.ts", "<rootDir>/test/*.test.ts"], ["\\.e2e\\.test\\.ts$"]),
    // The fault run is `pnpm test:faults` (jest.faults.config.js); its pure parts' tests are unit tests.
    project("e2e", ["<rootDir>/test/*.e2e.test.ts"], [`/test/(${SHARED_STACK_STORIES.join("|")})\\.e2e\\.test\\.ts$`]),
    project("stories on shared stacks", SHARED_STACK_STORIES.map((story) => `<rootDir>/test/${story}.e2e.test.ts`), [], {
      globalSetup: "<rootDir>/jest.shared-stacks.setup.ts",
      globalTeardown: "<rootDir>/jest.shared-stacks.teardown.ts",
    }),
  ],
  // Three workers on two cores: the stories mostly wait for blocks, so a third keeps the cores busy (two left
  // them a third idle); a fourth, or the fault run beside three, overloads them. JEST_MAX_WORKERS sizes it for another machine.
  maxWorkers: Number(process.env.JEST_MAX_WORKERS ?? 3),
  testSequencer: "<rootDir>/test/stories-first-sequencer.js",
  reporters: ["default", "<rootDir>/test/summary-reporter.js"],
  globalSetup: "<rootDir>/jest.global-setup.ts",
  testTimeout: 60_000,
};
