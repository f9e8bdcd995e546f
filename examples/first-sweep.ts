/**
 * A partner's first sweep on the local chains of `pnpm start`, in one command:
 *
 *   pnpm start                                          # in another terminal
 *   pnpm sweepctl partner create --name demo            # prints the API key
 *   SWEEP_API_KEY=svc_test_… pnpm example:first-sweep
 *
 * It registers a hot wallet, makes a deposit address holding devnet USDT and no gas, signs its
 * EIP-7702 authorization, sweeps it, hears `sweep.swept` on a local webhook receiver (verified),
 * and prints the result on chain and the gas saved against the classic sweep; then sweeps the
 * same address again, as every later deposit is swept.
 *
 * Variables: SWEEP_API_URL (http://127.0.0.1:8080), CHAIN_ID (11155111), and for the devnet faucet
 * RPC_URL and USDT_ADDRESS (what `pnpm sweepctl devnet info` prints, read from it by default).
 */
import { Contract, JsonRpcProvider, Wallet, formatEther, formatUnits, parseEther, parseUnits } from "ethers";
import { SweepClient, signAuthorization, type Event, type Sweep, type SweepRequest } from "@sweep/client";
import { devnetInfo } from "@sweep/devnet";
import { startWebhookReceiver } from "./webhook-receiver";

const say = (line: string) => console.log(line);

async function main(): Promise<void> {
  const apiKey = process.env.SWEEP_API_KEY ?? process.argv[2];
  if (!apiKey) throw new Error("give the API key `pnpm sweepctl partner create` printed: SWEEP_API_KEY=svc_test_… pnpm example:first-sweep");
  const chainId = Number(process.env.CHAIN_ID ?? 11155111);
  const devnet = devnetInfo("testnet").chains.find((c) => c.chain_id === chainId);
  const rpcUrl = process.env.RPC_URL ?? devnet?.rpc_url;
  const usdtAddress = process.env.USDT_ADDRESS ?? devnet?.tokens.find((t) => t.ticker === "USDT")?.address;
  if (!rpcUrl || !usdtAddress) throw new Error(`chain ${chainId} is not a devnet chain: set RPC_URL and USDT_ADDRESS`);

  const client = new SweepClient({ baseUrl: process.env.SWEEP_API_URL ?? "http://127.0.0.1:8080", apiKey });
  const provider = new JsonRpcProvider(rpcUrl, chainId, { staticNetwork: true });
  const usdt = new Contract(usdtAddress, ["function mint(address to, uint256 amount)", "function balanceOf(address) view returns (uint256)"], provider);

  // Devnet only: the chain's first account, funded by the node, stands in for a faucet.
  const faucet = await provider.getSigner(0);
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
  const events = new Map<string, (event: Event) => void>();
  let secret = "";
  const receiver = await startWebhookReceiver({
    secret: () => secret,
    onEvent: (event) => {
      if (event.type.startsWith("sweep.")) events.get((event.data as Sweep).id)?.(event);
    },
  });
  const previous = await client.webhook.get().catch(() => undefined);
  secret = (await client.webhook.set({ url: receiver.url, low_balance: previous?.low_balance.map(({ chain_id, threshold }) => ({ chain_id, threshold })) })).secret;
  say(`3. webhook set to ${receiver.url}${previous ? ` (it was ${previous.url}; put back at the end)` : ""}`);

  try {
    const deposit = Wallet.createRandom();
    const amount = parseUnits("25", 6);
    await (await usdt.connect(faucet).getFunction("mint")(deposit.address, amount)).wait();
    say(`4. deposit address ${deposit.address}: 25 USDT, no gas`);

    // Signed with the deposit address's own key: nonce 0, as it has never sent a transaction.
    const authorization = await signAuthorization(deposit, { chainId, address: hotWallet.delegate, nonce: 0 });
    say(`5. authorization of ${hotWallet.delegate} signed by the deposit key`);

    const first = await sweepAndHear(client, events, "6.", { chain_id: chainId, hot_wallet: hotWalletAddress, account: deposit.address, token: "USDT", authorization });
    const onChain = (await usdt.getFunction("balanceOf")(hotWalletAddress)) as bigint;
    say(`   hot wallet holds ${formatUnits(onChain, 6)} USDT on chain ${chainId}`);
    report("first sweep", first);

    // Every later deposit to the address: no authorization, no gas top-up.
    await (await usdt.connect(faucet).getFunction("mint")(deposit.address, amount)).wait();
    say(`7. another 25 USDT to the same deposit address`);
    const repeat = await sweepAndHear(client, events, "8.", { chain_id: chainId, hot_wallet: hotWalletAddress, account: deposit.address, token: "USDT" });
    report("repeat sweep", repeat);
  } finally {
    if (previous) await client.webhook.set({ url: previous.url, low_balance: previous.low_balance.map(({ chain_id, threshold }) => ({ chain_id, threshold })) });
    await receiver.close();
  }
}

/** POSTs the sweep, then waits for its final state and for the signed webhook telling it. */
async function sweepAndHear(client: SweepClient, events: Map<string, (event: Event) => void>, step: string, request: SweepRequest): Promise<Sweep> {
  const queued = await client.sweeps.create(request);
  say(`${step} sweep ${queued.id} ${queued.status}`);
  const heard = new Promise<Event>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no webhook for sweep ${queued.id} within 2 minutes`)), 120_000);
    events.set(queued.id, (event) => {
      clearTimeout(timer);
      resolve(event);
    });
  });
  const sweep = await client.waitForSweep(queued.id, { timeoutMs: 120_000 });
  if (sweep.status !== "swept") throw new Error(`sweep ${sweep.id} ended ${sweep.status}: ${sweep.reason}`);
  const event = await heard;
  say(`   webhook ${event.type} (event ${event.id}), signature verified`);
  say(`   swept ${formatUnits(BigInt(sweep.swept_amount!), 6)} USDT in ${sweep.tx_hash}`);
  return sweep;
}

function report(what: string, sweep: Sweep): void {
  const gas = sweep.gas ?? 0;
  const classic = sweep.classic_gas;
  const fee = formatEther(BigInt(sweep.fee ?? "0"));
  if (classic === undefined) {
    say(`   ${what}: ${gas} gas (${sweep.kind}); fee ${fee} ETH; no classic benchmark on this chain`);
    return;
  }
  const saved = classic - gas;
  const against = `${gas} gas against ${classic} for the classic top-up and transfer`;
  // A batch of one bears its whole transaction; batches of many share it, and repeat sweeps need no delegation.
  const verdict = saved >= 0 ? `${saved} saved (${Math.round((saved * 100) / classic)}%)` : `${-saved} more, as the only sweep of its batch`;
  say(`   ${what} (${sweep.kind}): ${against}: ${verdict}; fee ${fee} ETH`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
