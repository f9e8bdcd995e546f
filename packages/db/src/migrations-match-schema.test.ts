import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { Client } from "pg";
import { repoRoot } from "./database";

// schema.prisma makes the client's types, the migrations make the database: an edit to one
// without the other shows up here, not as a query failing in production.
describe("the migrations", () => {
  // Its own name: two runs on one server must not drop each other's.
  const scratch = `sweep_schema_from_datamodel_${process.pid}`;
  const migratedUrl = process.env.DATABASE_URL!;
  const scratchUrl = new URL(`/${scratch}`, migratedUrl).toString();

  beforeAll(async () => {
    const prisma = path.join(repoRoot, "node_modules", ".bin", "prisma");
    const { stdout: script } = await promisify(execFile)(prisma, ["migrate", "diff", "--from-empty", "--to-schema-datamodel", "prisma/schema.prisma", "--script"], { cwd: repoRoot });
    await withClient(new URL("/postgres", migratedUrl).toString(), async (admin) => {
      await admin.query(`DROP DATABASE IF EXISTS "${scratch}" WITH (FORCE)`);
      await admin.query(`CREATE DATABASE "${scratch}"`);
    });
    await withClient(scratchUrl, (c) => c.query(script));
  }, 60_000);

  afterAll(() => withClient(new URL("/postgres", migratedUrl).toString(), (admin) => admin.query(`DROP DATABASE IF EXISTS "${scratch}" WITH (FORCE)`)));

  it("build the database schema.prisma describes: tables, columns, enums, indexes and constraints", async () => {
    const [migrated, described] = await Promise.all([withClient(migratedUrl, catalog), withClient(scratchUrl, catalog)]);
    expect(migrated.columns.length).toBeGreaterThan(100);
    const { checks, ...shape } = migrated;
    const { checks: describedChecks, ...describedShape } = described;
    expect(shape).toEqual(describedShape);
    // schema.prisma cannot declare a CHECK: the migrations' own are listed here, so one is added on purpose.
    expect(describedChecks).toEqual([]);
    expect(checks.map((check) => `${check.table_name}.${check.conname}`)).toEqual(MIGRATION_CHECKS);
  });
});

/** CHECK constraints written in the migrations' SQL (each keeps a row whole where the schema cannot say how). */
const MIGRATION_CHECKS = ["batches.batches_drain_to_check", "gas_wallets.gas_wallets_key_custody_check"];

async function withClient<T>(url: string, use: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** The public schema's shape, without Prisma's own bookkeeping table. */
async function catalog(client: Client) {
  const rows = async (sql: string) => (await client.query(sql)).rows as Array<Record<string, unknown>>;
  return {
    columns: await rows(`SELECT table_name, column_name, data_type, udt_name, numeric_precision, numeric_scale, datetime_precision, is_nullable, column_default
                           FROM information_schema.columns
                          WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'
                          ORDER BY table_name, column_name`),
    enums: await rows(`SELECT t.typname, array_agg(e.enumlabel ORDER BY e.enumsortorder)::text AS labels
                         FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid
                        GROUP BY t.typname ORDER BY t.typname`),
    indexes: await rows(`SELECT tablename, indexname, indexdef FROM pg_indexes
                          WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'
                          ORDER BY tablename, indexname`),
    constraints: await rows(`SELECT conrelid::regclass::text AS table_name, conname, pg_get_constraintdef(oid) AS definition
                               FROM pg_constraint
                              WHERE connamespace = 'public'::regnamespace AND conrelid::regclass::text <> '_prisma_migrations' AND contype <> 'c'
                              ORDER BY 1, 2`),
    checks: await rows(`SELECT conrelid::regclass::text AS table_name, conname FROM pg_constraint
                         WHERE connamespace = 'public'::regnamespace AND contype = 'c' ORDER BY 1, 2`),
  };
}
