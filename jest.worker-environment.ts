import { TestEnvironment } from "jest-environment-node";
import { workerDatabaseUrl } from "./packages/testkit/src/worker-database";

/**
 * jest's node environment, with the worker's own database (a copy of the template the global setup
 * made for each worker) as DATABASE_URL. Set on the worker's process before the test's sandbox copies
 * it, so that the processes a test starts (prisma, sweepctl, services) get it as well.
 */
export default class WorkerDatabaseEnvironment extends TestEnvironment {
  constructor(...[config, context]: ConstructorParameters<typeof TestEnvironment>) {
    process.env.DATABASE_URL = workerDatabaseUrl(process.env.TEST_DATABASE_URL!, process.env.JEST_WORKER_ID ?? "1");
    super(config, context);
  }
}
