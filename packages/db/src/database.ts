import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { Client } from "pg";

/** Creates the database named in the URL when it does not exist yet (connects to `postgres`). */
export async function ensureDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ""));
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`unsupported database name in DATABASE_URL: ${JSON.stringify(name)}`);
  url.pathname = "/postgres";
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (found.rowCount === 0) {
      try {
        await client.query(`CREATE DATABASE "${name}"`);
      } catch (err) {
        // Another process created it between the check and the create.
        if ((err as { code?: string }).code !== "42P04") throw err;
      }
    }
  } finally {
    await client.end();
  }
}

export const repoRoot = path.resolve(__dirname, "../../..");

const migrationsDir = () => path.join(repoRoot, "prisma", "migrations");

/** Migration folders not yet recorded as finished in `_prisma_migrations` (all of them on a new database). */
export async function pendingMigrations(databaseUrl: string): Promise<string[]> {
  const folders = fs
    .readdirSync(migrationsDir(), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const table = await client.query("SELECT to_regclass('_prisma_migrations') IS NOT NULL AS present");
    if (!table.rows[0]?.present) return folders;
    const applied = await client.query<{ migration_name: string }>(
      "SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL",
    );
    const done = new Set(applied.rows.map((r) => r.migration_name));
    return folders.filter((f) => !done.has(f));
  } finally {
    await client.end();
  }
}

/**
 * Applies prisma/migrations with `prisma migrate deploy` (offline WASM engine via prisma.config.ts).
 * Skipped when nothing is pending: the engine takes about 12 s even then, on every start and test run.
 */
export async function migrateDatabase(databaseUrl: string): Promise<void> {
  await ensureDatabase(databaseUrl);
  if ((await pendingMigrations(databaseUrl)).length === 0) return;
  const prismaBin = path.join(repoRoot, "node_modules", ".bin", "prisma");
  await new Promise<void>((resolve, reject) => {
    let output = "";
    const child = spawn(prismaBin, ["migrate", "deploy"], {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`prisma migrate deploy failed (${code}):\n${output}`))));
  });
}
