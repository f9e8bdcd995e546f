import { migrateDatabase } from "@sweep/db";
import { createSoftHsmConfiguration } from "@sweep/testkit";

/** Tests run against a database of their own, migrated like production (`prisma migrate deploy`). */
export default async function globalSetup(): Promise<void> {
  process.env.DATABASE_URL = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/sweep_test";
  process.env.LOG_LEVEL ??= "warn";
  // A template that tests running whole services copy into a database of their own (testkit's createTestDatabase).
  process.env.TEMPLATE_DATABASE_URL ??= new URL("/sweep_template", process.env.DATABASE_URL).toString();
  // Tests keep gas wallet keys in SoftHSM2 tokens of their own, in this run's token directory.
  process.env.SOFTHSM2_CONF ??= createSoftHsmConfiguration();
  await Promise.all([migrateDatabase(process.env.DATABASE_URL), migrateDatabase(process.env.TEMPLATE_DATABASE_URL)]);
}
