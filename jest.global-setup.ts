import { migrateDatabase } from "@sweep/db";
import { buildServiceBundles } from "@sweep/service-bundles";
import { copyTemplate, createSoftHsmConfiguration, workerDatabaseUrl } from "@sweep/testkit";

/**
 * Tests run against databases of their own, migrated like production (`prisma migrate deploy`): a
 * template, migrated once, and a copy of it for each jest worker (jest.worker-environment.ts points the
 * worker's tests at theirs), so that tests in parallel workers never see each other's rows.
 */
export default async function globalSetup(globalConfig: { maxWorkers: number }): Promise<void> {
  // Once a run: the shared stacks' project runs it first (jest.shared-stacks.setup.ts), then jest runs it as the root's.
  if (process.env.SWEEP_TEST_SETUP_DONE) return;
  process.env.TEST_DATABASE_URL ??= "postgresql://postgres@127.0.0.1:5432/sweep_test";
  process.env.LOG_LEVEL ??= "warn";
  // The template that each worker's database, and each test running whole services (testkit's createTestDatabase), copies.
  process.env.TEMPLATE_DATABASE_URL ??= new URL("/sweep_template", process.env.TEST_DATABASE_URL).toString();
  // Tests keep gas wallet keys in SoftHSM2 tokens of their own, in this run's token directory.
  process.env.SOFTHSM2_CONF ??= createSoftHsmConfiguration();
  // The services run from their bundles, built again here so that a test never runs a service as it was before an edit (about a second).
  await Promise.all([migrateDatabase(process.env.TEMPLATE_DATABASE_URL), buildServiceBundles()]);
  const workers = Array.from({ length: globalConfig.maxWorkers }, (_, i) => String(i + 1));
  await Promise.all(workers.map((worker) => copyTemplate(new URL(workerDatabaseUrl(process.env.TEST_DATABASE_URL!, worker)).pathname.slice(1), { replace: true })));
  process.env.SWEEP_TEST_SETUP_DONE = "1";
}
