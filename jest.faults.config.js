/** `pnpm test:faults`: the fault run alone (jest.config.js's "faults" project), on databases of its own so that it can run beside `pnpm test`. */
const base = require("./jest.config");
const faults = base.projects.find((project) => project.displayName === "faults");

process.env.TEST_DATABASE_URL ??= "postgresql://postgres@127.0.0.1:5432/sweep_faults";
process.env.TEMPLATE_DATABASE_URL ??= "postgresql://postgres@127.0.0.1:5432/sweep_faults_template";

module.exports = {
  ...faults,
  maxWorkers: 1,
  reporters: base.reporters,
  globalSetup: base.globalSetup,
  testTimeout: base.testTimeout,
};
