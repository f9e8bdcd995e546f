/**
 * A partner's first sweeps on the local chains of `pnpm start`, in one command:
 *
 *   pnpm start                                          # in another terminal
 *   pnpm sweepctl partner create --name demo            # prints the API key
 *   SWEEP_API_KEY=svc_test_… pnpm example:first-sweep
 *
 * It registers a hot wallet, makes deposit addresses holding devnet USDT and no gas, signs each
 * one's EIP-7702 authorization with its own key, sweeps them, hears each `sweep.swept` on a local
 * webhook receiver (verified), and prints the result on chain and the gas against the classic
 * sweep; then sweeps the same addresses again, as every later deposit is swept.
 *
 * Variables: SWEEP_API_URL (http://127.0.0.1:8080), CHAIN_ID (11155111), DEPOSITS (10: how many
 * deposit addresses, swept together in one transaction), and for the devnet faucet RPC_URL and
 * USDT_ADDRESS (what `pnpm sweepctl devnet info` prints, read from it by default).
 */
import { Contract, JsonRpcProvider, Wallet, formatEther, formatUnits, parseEther, parseUnits, type ContractTransactionResponse, type HDNodeWallet } from "ethers";
import { SweepClient, signAuthorization, type Event, type Sweep, type SweepRequest } from "@sweep/client";
import { devnetInfo } from "@sweep/devnet";
import { startWebhookReceiver } from "./webhook-receiver";

const say = (line: string) => console.log(line);
const DEPOSIT = parseUnits("25", 6);

async function main(): Promise<void> {
  const apiKey = process.env.SWEEP_API_KEY ?? process.argv[2];
  if (!apiKey) throw new Error("give the API key `pnpm sweepctl partner create` printed: SWEEP_API_KEY=svc_test_… pnpm example:first-sweep");
  const chainId = Number(process.env.CHAIN_ID ?? 11155111);
  const count = Number(process.env.DEPOSITS ?? 10);
  const devnet = devnetChain(chainId);
  const rpcUrl = process.env.RPC_URL ?? devnet?.rpc_url;
  const usdtAddress = process.env.USDT_ADDRESS ?? devnet?.tokens.find((t) => t.ticker === "USDT")?.address;
  if (!rpcUrl || !usdtAddress) throw new Error(`chain ${chainId} is not a devnet chain: set RPC_URL and USDT_ADDRESS`);

  const client = new SweepClient({ baseUrl: process.env.SWEEP_API_URL ?? "http://127.0.0.1:8080", apiKey });
  const provider = new JsonRpcProvider(rpcUrl, chainId, { staticNetwork: true });
  // Devnet only: the chain's first account, funded by the node, stands in for a faucet.
  const faucet = await provider.getSigner(0);
  const usdt = new Contract(usdtAddress, ["function mint(address to, uint256 amount)", "function balanceOf(address) view returns (uint256)"], faucet);
  /** Mints a deposit to each address: sent one after the other (one account's nonces), mined together. */
  const mintDeposits = async (addresses: string[]) => {
    const sent: ContractTransactionResponse[] = [];
    for (const address of addresses) sent.push(await usdt.getFunction("mint")(address, DEPOSIT));
    await Promise.all(sent.map((tx) => tx.wait()));
  };

  const { gas_wallet: gasWallet } = await client.balance();
  say(`1. gas wallet ${gasWallet}: 1 ETH from the devnet faucet (on a real chain, top it up yourself)`);
  await (await faucet.sendTransaction({ to: gasWallet, value: parseEther("1") })).wait();

  const hotWalletAddress = process.env.HOT_WALLET ?? Wallet.createRandom().address;
  const registered = await client.hotWallets.register({ chain_id: chainId, address: hotWalletAddress });
  say(`2. hot wallet ${hotWalletAddress} registered; its delegate ${registered.delegate} is being deployed`);
  const hotWallet = await client.waitForHotWallet(chainId, hotWalletAddress, { timeoutMs: 120_000 });
  if (hotWallet.status !== "active") throw new Error(`the delegate was not deployed: ${hotWallet.error}`);
  say(`   active (deployed in ${hotWallet.tx_hash})`);

  // The webhook: events reach this receiver, which verifies each one.
  const heard = new Map<string, (event: Event) => void>();
  let secret = "";
  const receiver = await startWebhookReceiver({
    secret: () => secret,
    onEvent: (event) => {
      if (event.type.startsWith("sweep.")) heard.get((event.data as Sweep).id)?.(event);
    },
  });
  const previous = await client.webhook.get().catch(() => undefined);
  const alerts = previous?.low_balance.map(({ chain_id, threshold }) => ({ chain_id, threshold }));
  secret = (await client.webhook.set({ url: receiver.url, low_balance: alerts })).secret;
  say(`3. webhook set to ${receiver.url}${previous ? ` (it was ${previous.url}; put back at the end)` : ""}`);

  try {
    const deposits: HDNodeWallet[] = Array.from({ length: count }, () => Wallet.createRandom());
    await mintDeposits(deposits.map((d) => d.address));
    say(`4. ${count} deposit addresses (${deposits[0]!.address}, …): 25 USDT each, no gas`);

    // Each signed with the deposit address's own key: nonce 0, as it has never sent a transaction.
    const authorizations = await Promise.all(deposits.map((d) => signAuthorization(d, { chainId, address: hotWallet.delegate, nonce: 0 })));
    say(`5. ${count} authorizations of the delegate ${hotWallet.delegate}, each signed by its deposit key`);

    const request = (deposit: HDNodeWallet, i: number): SweepRequest => ({ chain_id: chainId, hot_wallet: hotWalletAddress, account: deposit.address, token: "USDT", authorization: authorizations[i] });
    report("first sweeps", await sweepAndHear(client, heard, "6.", deposits.map(request)));
    const onChain = (await usdt.getFunction("balanceOf")(hotWalletAddress)) as bigint;
    say(`   the hot wallet holds ${formatUnits(onChain, 6)} USDT on chain ${chainId}`);

    // Every later deposit to these addresses: no authorization, no gas top-up.
    await mintDeposits(deposits.map((d) => d.address));
    say(`7. another 25 USDT to each deposit address`);
    report("repeat sweeps", await sweepAndHear(client, heard, "8.", deposits.map((d) => ({ chain_id: chainId, hot_wallet: hotWalletAddress, account: d.address, token: "USDT" }))));
  } finally {
    if (previous) await client.webhook.set({ url: previous.url, low_balance: alerts });
    await receiver.close();
  }
}

/** POSTs the sweeps together (the batcher gathers them into one transaction), then waits for each to end and for the signed webhook telling it. */
async function sweepAndHear(client: SweepClient, heard: Map<string, (event: Event) => void>, step: string, requests: SweepRequest[]): Promise<Sweep[]> {
  const queued = await Promise.all(requests.map((request) => client.sweeps.create(request)));
  say(`${step} ${queued.length} sweeps queued (${queued[0]!.id}, …)`);
  const events = queued.map(
    ({ id }) =>
      new Promise<Event>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no webhook for sweep ${id} within 2 minutes`)), 120_000);
        heard.set(id, (event) => {
          clearTimeout(timer);
          resolve(event);
        });
      }),
  );
  const swept = await Promise.all(queued.map(({ id }) => client.waitForSweep(id, { timeoutMs: 120_000 })));
  const failed = swept.find((sweep) => sweep.status !== "swept");
  if (failed) throw new Error(`sweep ${failed.id} ended ${failed.status}: ${failed.reason}`);
  const delivered = await Promise.all(events);
  say(`   ${delivered.length} webhooks sweep.swept, each signature verified (event ${delivered[0]!.id}, …)`);
  const transactions = new Set(swept.map((sweep) => sweep.tx_hash));
  const total = swept.reduce((sum, sweep) => sum + BigInt(sweep.swept_amount!), 0n);
  say(`   swept ${formatUnits(total, 6)} USDT in ${transactions.size} transaction${transactions.size === 1 ? "" : "s"} (${[...transactions].join(", ")})`);
  return swept;
}

/**
 * The devnet's chain of that id, looked up alone: OP Sepolia (`pnpm start --with-op`) is one too,
 * whether ENV_CHAINS lists it here or not. Undefined for a chain that is not a testnet preset.
 */
function devnetChain(chainId: number) {
  try {
    return devnetInfo("testnet", { ...process.env, ENV_CHAINS: String(chainId) }).chains.find((c) => c.chain_id === chainId);
  } catch {
    return undefined;
  }
}

function report(what: string, sweeps: Sweep[]): void {
  const gas = Math.round(sweeps.reduce((sum, sweep) => sum + (sweep.gas ?? 0), 0) / sweeps.length);
  const fees = formatEther(sweeps.reduce((sum, sweep) => sum + BigInt(sweep.fee ?? "0"), 0n));
  const classic = sweeps[0]!.classic_gas;
  if (classic === undefined) {
    say(`   ${what}: ${gas} gas each on average; fees ${fees} ETH; no classic benchmark on this chain`);
    return;
  }
  const saved = classic - gas;
  // Batches of many share the transaction's base cost; repeat sweeps need no delegation.
  const verdict = saved >= 0 ? `${saved} saved (${Math.round((saved * 100) / classic)}%)` : `${-saved} more`;
  say(`   ${what} (${sweeps[0]!.kind}): ${gas} gas each on average, against ${classic} for the classic top-up and transfer: ${verdict}; fees ${fees} ETH in all`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
