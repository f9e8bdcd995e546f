import { randomBytes } from "node:crypto";
import { Client } from "pg";

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A database of its own for a test that runs services (their pollers see every row): a copy of
 * the migrated template the jest global setup keeps (`TEMPLATE_DATABASE_URL`). Dropped by `drop()`.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  return copyTemplate(`sweep_e2e_${randomBytes(4).toString("hex")}`);
}

/**
 * A copy of the template under a given name, made afresh: what a run before this one left there is
 * dropped first (each jest worker's database, `workerDatabaseUrl`).
 */
export async function copyTemplate(name: string, options: { replace?: boolean } = {}): Promise<TestDatabase> {
  const template = templateUrl();
  const drop = () => onServer(template, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  if (options.replace) await drop();
  await onServer(template, `CREATE DATABASE "${name}" TEMPLATE "${template.pathname.slice(1)}"`);
  return { url: new URL(`/${name}`, template).toString(), drop };
}

function templateUrl(): URL {
  return new URL(process.env.TEMPLATE_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/sweep_template");
}

/** One statement on the template's server, from its `postgres` database (CREATE and DROP DATABASE run outside the one they name). */
async function onServer(template: URL, sql: string): Promise<void> {
  const admin = new Client({ connectionString: new URL("/postgres", template).toString() });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}
