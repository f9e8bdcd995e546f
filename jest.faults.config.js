/** `pnpm test:faults`: the fault run of test/faults alone (see jest.config.js), on databases of its own so that it can run beside `pnpm test`. */
const base = require("./jest.config");
const e2e = base.projects.find((project) => project.displayName === "e2e");

process.env.TEST_DATABASE_URL ??= "postgresql://postgres@127.0.0.1:5432/sweep_faults";
process.env.TEMPLATE_DATABASE_URL ??= "postgresql://postgres@127.0.0.1:5432/sweep_faults_template";

module.exports = {
  ...e2e,
  displayName: "faults",
  rootDir: __dirname,
  testMatch: ["<rootDir>/test/faults/*.e2e.test.ts"],
  maxWorkers: 1,
  reporters: base.reporters,
  globalSetup: base.globalSetup,
  testTimeout: base.testTimeout,
};
