import fs from "node:fs";
import { rpcAnswers } from "@sweep/anvil";
import { createDb, ensureDatabase, migrateDatabase } from "@sweep/db";
import type { ChainEndpoint } from "./chains";

/**
 * Wipes the devnet: the database (emptied, then migrated afresh) and the local chains' state files,
 * together, so that the next `pnpm start` begins with chains and database that agree.
 *
 * It stops nothing. It refuses while a local chain still answers, because the running stack
 * (`pnpm start`) would keep the old chain in memory, write it back to the state file on exit, and
 * its services would keep writing to the database being wiped; the operator stops the stack with
 * Ctrl-C first. It refuses, too, when a chain is a real node (RPC_URL_<chain_id>): that chain
 * cannot be wiped, so the database would no longer match it.
 */
export async function resetDevnet(databaseUrl: string, endpoints: readonly ChainEndpoint[]): Promise<{ stateFiles: string[] }> {
  const remote = endpoints.find((e) => !e.local);
  if (remote) {
    throw new Error(`chain ${remote.chain.chainId} is not a local devnet chain (${remote.rpcUrl}); devnet reset only wipes local chains and their database`);
  }
  for (const endpoint of endpoints) {
    if (await rpcAnswers(endpoint.rpcUrl)) {
      throw new Error(`chain ${endpoint.chain.chainId} is still running on ${endpoint.rpcUrl}: stop \`pnpm start\` (Ctrl-C) first, then run devnet reset again`);
    }
  }
  // Database first: it is the step that can fail (unreachable, locked); the files then stay too.
  await ensureDatabase(databaseUrl);
  await emptyDatabase(databaseUrl);
  await migrateDatabase(databaseUrl);
  const stateFiles = endpoints.flatMap((e) => (e.local && fs.existsSync(e.local.stateFile) ? [e.local.stateFile] : []));
  for (const file of stateFiles) fs.rmSync(file);
  return { stateFiles };
}

/** Drops and recreates the schema, which takes every table, type and the migration history with it. */
async function emptyDatabase(databaseUrl: string): Promise<void> {
  const schema = new URL(databaseUrl).searchParams.get("schema") ?? "public";
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(schema)) throw new Error(`unsupported schema name in DATABASE_URL: ${JSON.stringify(schema)}`);
  const db = createDb(databaseUrl, { poolSize: 1 });
  try {
    await db.$transaction([
      // A forgotten session holding a lock fails the reset instead of hanging it.
      db.$executeRawUnsafe(`SET LOCAL lock_timeout = '5s'`),
      db.$executeRawUnsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`),
      db.$executeRawUnsafe(`CREATE SCHEMA "${schema}"`),
    ]);
  } finally {
    await db.$disconnect();
  }
}
