import { migrateDatabase } from "@sweep/db";
import { authorizationBody, createTestPartner, postgresCpuSeconds, processTreeCpuSeconds, startService, startStack } from "@sweep/testkit";
import autocannon from "autocannon";
import express from "express";
import { Pool } from "pg";
import { Wallet } from "ethers";
import type { AddressInfo } from "node:net";
import { cpus } from "node:os";

// POST /v1/sweeps throughput and latency, next to a bare express + Postgres insert measured in the
// same run on the same machine: the bare figure is the ceiling the gateway's own work is judged by.
// Each row also prints the CPU the gateway's processes and the Postgres server spent per accepted POST
// (from /proc), a figure other load on the machine moves far less than throughput. Prints figures; asserts nothing.

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
/** the aim's load: latency is read at this steady rate, below saturation */
const AIM_RATE = Number(process.env.BENCH_RATE ?? 1000);
/** the gateway's workers in the second set of rows (GATEWAY_WORKERS): one per core by default */
const GATEWAY_WORKERS = Number(process.env.BENCH_GATEWAY_WORKERS ?? cpus().length);

/** CPU seconds of what a row measures: the gateway's processes (none for the bare insert, which shares the load generator's) and the Postgres server. */
interface CpuMeters {
  gateway?: () => number;
  postgres: () => number;
}

/** Saturation (no rate: every connection sends as fast as answers come) gives the ceiling; a rate gives the latency at that load. */
async function run(title: string, url: string, headers: Record<string, string>, body: () => string, cpu: CpuMeters, overallRate?: number) {
  const [gatewayBefore, postgresBefore] = [cpu.gateway?.(), cpu.postgres()];
  const result = await autocannon({
    url,
    method: "POST",
    connections: CONNECTIONS,
    duration: DURATION_S,
    ...(overallRate === undefined ? {} : { overallRate }),
    headers: { "content-type": "application/json", ...headers },
    requests: [{ setupRequest: (req) => ({ ...req, body: body() }) }],
  });
  const ok = result["2xx"];
  const perPost = (seconds: number) => (ok === 0 ? "-" : ((seconds * 1000) / ok).toFixed(2));
  const gatewayCpu = cpu.gateway && gatewayBefore !== undefined ? perPost(cpu.gateway() - gatewayBefore) : "-";
  const postgresCpu = perPost(cpu.postgres() - postgresBefore);
  return { title, requests: result.requests.total, ok, non2xx: result.non2xx, rps: Math.round(ok / DURATION_S), p50: result.latency.p50, p99: result.latency.p99, gatewayCpu, postgresCpu };
}

async function bareExpressInsert(databaseUrl: string) {
  const pool = new Pool({ connectionString: databaseUrl, max: 10 });
  await pool.query("CREATE TABLE IF NOT EXISTS bench_bare (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), body jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now())");
  const app = express();
  app.use(express.json({ limit: 65536 }));
  app.post("/insert", async (req, res) => {
    const { rows } = await pool.query("INSERT INTO bench_bare (body) VALUES ($1) RETURNING id, created_at", [req.body]);
    res.status(202).json(rows[0]);
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/insert`, close: async () => (server.close(), pool.end()) };
}

async function main() {
  process.env.TEMPLATE_DATABASE_URL ??= "postgresql://postgres@127.0.0.1:5432/sweep_template";
  await migrateDatabase(process.env.TEMPLATE_DATABASE_URL);
  // The limits stay on (their Redis calls are part of what is measured) but far above a saturated run's rate.
  const env = { LOG_LEVEL: "warn", RATE_LIMIT_PER_ADDRESS: "1000000", RATE_LIMIT_PER_KEY: "1000000" };
  const stack = await startStack({ services: ["api-gateway"], env });
  try {
    const partner = await createTestPartner(stack.db, "bench");
    const hotWallet = Wallet.createRandom().address;
    // Registered as active directly: this measures the API, not the deployment.
    const delegate = Wallet.createRandom().address;
    await stack.db.hotWallet.create({ data: { partnerId: partner.partnerId, chainId: 97, address: hotWallet, delegate, status: "active" } });
    const owners = Array.from({ length: 1000 }, () => Wallet.createRandom());
    let n = 0;
    const sweepBody = () => JSON.stringify({ chain_id: 97, hot_wallet: hotWallet, account: owners[n++ % owners.length]!.address, token: "USDT", amount: "1000" });
    // A first-time sweep carries its address's authorization, which the API verifies (signer recovery).
    const authorizations = owners.map((o) => authorizationBody(o.authorizeSync({ address: delegate, nonce: 0n, chainId: 97n })));
    const firstTimeBody = () => {
      const i = n++ % owners.length;
      return JSON.stringify({ chain_id: 97, hot_wallet: hotWallet, account: owners[i]!.address, token: "USDT", amount: "1000", authorization: authorizations[i] });
    };

    const postgres = postgresCpuSeconds;
    const bare = await bareExpressInsert(stack.env.DATABASE_URL!);
    const rows = [
      await run("bare express + Postgres insert, saturated", bare.url, {}, sweepBody, { postgres }),
      await run(`bare express + Postgres insert, at ${AIM_RATE}/s`, bare.url, {}, sweepBody, { postgres }, AIM_RATE),
    ];
    await bare.close();
    const gatewayRows = async (api: string, what: string, pid: number) => {
      const gateway = `${api}/v1/sweeps`;
      const cpu = { gateway: () => processTreeCpuSeconds(pid), postgres };
      rows.push(await run(`POST /v1/sweeps (${what}), saturated`, gateway, partner.auth, sweepBody, cpu));
      rows.push(await run(`POST /v1/sweeps (${what}), at ${AIM_RATE}/s`, gateway, partner.auth, sweepBody, cpu, AIM_RATE));
      rows.push(await run(`POST /v1/sweeps with an authorization (${what}), saturated`, gateway, partner.auth, firstTimeBody, cpu));
      rows.push(await run(`POST /v1/sweeps with an authorization (${what}), at ${AIM_RATE}/s`, gateway, partner.auth, firstTimeBody, cpu, AIM_RATE));
    };
    await gatewayRows(stack.api, "api-gateway, one process", stack.services.get("api-gateway")!.pid);
    // The same stack's gateway again as GATEWAY_WORKERS runs it, the first one idle meanwhile.
    const workers = await startService("api-gateway", { ...stack.env, ...env, GATEWAY_WORKERS: String(GATEWAY_WORKERS) });
    try {
      await gatewayRows(`http://127.0.0.1:${workers.port}`, `api-gateway, ${GATEWAY_WORKERS} workers`, workers.pid);
    } finally {
      await workers.stop();
    }

    console.log(`\nPOST throughput, ${CONNECTIONS} connections, ${DURATION_S} s each, this machine (${cpus().length} cores)`);
    console.log("| what | accepted/s | p50 ms | p99 ms | non-2xx | gateway CPU ms/POST | Postgres CPU ms/POST |");
    console.log("|---|--:|--:|--:|--:|--:|--:|");
    for (const r of rows) console.log(`| ${r.title} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.non2xx} | ${r.gatewayCpu} | ${r.postgresCpu} |`);
    const [bareSaturated, , repeatSaturated, , firstSaturated, , repeatWorkers, , firstWorkers] = rows;
    const ratio = (row: typeof bareSaturated) => (row!.rps / bareSaturated!.rps).toFixed(2);
    console.log(`saturated, against the bare insert: repeat POST ${ratio(repeatSaturated)}× (aim 0.7×), first POST with its authorization ${ratio(firstSaturated)}× (aim 0.5×)`);
    console.log(`the same with ${GATEWAY_WORKERS} workers: repeat POST ${ratio(repeatWorkers)}×, first POST ${ratio(firstWorkers)}×`);
    console.log("aim: 1,000 accepted sweeps per second with p99 under 50 ms");
  } finally {
    await stack.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
