import { migrateDatabase } from "@sweep/db";

/** Tests run against a database of their own, migrated like production (`prisma migrate deploy`). */
export default async function globalSetup(): Promise<void> {
  process.env.DATABASE_URL = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/sweep_test";
  process.env.LOG_LEVEL ??= "warn";
  await migrateDatabase(process.env.DATABASE_URL);
}
