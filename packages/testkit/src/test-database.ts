import { randomBytes } from "node:crypto";
import { Client } from "pg";

/**
 * A database of its own for a test that runs services (their pollers see every row): a copy of
 * the migrated template the jest global setup keeps (`TEMPLATE_DATABASE_URL`). Dropped by `drop()`.
 */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const template = new URL(process.env.TEMPLATE_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/sweep_template");
  const name = `sweep_e2e_${randomBytes(4).toString("hex")}`;
  const adminUrl = new URL("/postgres", template).toString();
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template.pathname.slice(1)}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(`/${name}`, template).toString();
  return {
    url,
    drop: async () => {
      const c = new Client({ connectionString: adminUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
