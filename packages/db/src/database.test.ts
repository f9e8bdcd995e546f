import fs from "node:fs";
import path from "node:path";
import { Client } from "pg";
import { ensureDatabase, pendingMigrations, repoRoot } from "./database";

describe("migrations", () => {
  const folders = fs.readdirSync(path.join(repoRoot, "prisma", "migrations"), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);

  it("has nothing pending on the migrated test database", async () => {
    expect(folders.length).toBeGreaterThan(0);
    expect(await pendingMigrations(process.env.DATABASE_URL!)).toEqual([]);
  });

  it("has every migration pending on a new database, which ensureDatabase creates once", async () => {
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = "/sweep_pending_migrations_test";
    const admin = new Client({ connectionString: new URL("/postgres", url).toString() });
    await admin.connect();
    await admin.query('DROP DATABASE IF EXISTS "sweep_pending_migrations_test"');
    await admin.end();
    await ensureDatabase(url.toString());
    await ensureDatabase(url.toString());
    expect(await pendingMigrations(url.toString())).toEqual(folders);
  });
});
