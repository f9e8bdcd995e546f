/**
 * Gas report of sweep batches on a fresh node of each implementation, anvil and hardhat's EDR
 * (automine, 30M block gas limit): gas per item (the batch transaction's gasUsed, 21,000 base and
 * authorizations included, divided by the number of items) by kind and batch size, next to the
 * classic sweep measured on the same node. The two differ where anvil departs from EIP-7702: it
 * refunds an authorization's 12,500 for an address without an account too. Figures are printed,
 * not asserted.
 *
 *   tsx packages/contracts/bench/gas-report.ts
 */
import { startAnvil } from "@sweep/anvil";
import { startHardhatNode } from "@sweep/hardhat-node";
import { parseEther, parseUnits, type Authorization, type Wallet } from "ethers";
import { NATIVE_TOKEN, type SweepItem } from "../src";
import { labelledWallet, sendBatch, setBalance, startSweepChain, type StartNode, type SweepChain } from "../test/support/sweep-chain";

const NODES: readonly StartNode[] = [startAnvil, startHardhatNode];

const BATCH_SIZES = [1, 10, 100, 500];
const KINDS = ["first_new", "first", "repeat", "native"] as const;
type Kind = (typeof KINDS)[number];
/** EIP-7825 (Osaka) caps a transaction's gas limit at 2^24 on public chains; anvil does not. */
const OSAKA_TX_GAS_CAP = 1n << 24n;
const DEPOSIT = parseUnits("125.5", 6);

interface Measurement {
  gasUsed: bigint;
  gasLimit: bigint;
}

interface Classic {
  topUp: bigint;
  transfer: bigint;
  native: bigint;
}

async function main(): Promise<void> {
  for (const start of NODES) await report(start);
}

/** Measures every kind and batch size on a fresh node and prints its table, named by the node's version. */
async function report(start: StartNode): Promise<void> {
  const chain = await startSweepChain(start);
  try {
    const clientVersion = (await chain.provider.send("web3_clientVersion", [])) as string;
    const blockGasLimit = (await chain.provider.getBlock("latest"))!.gasLimit;
    // The hot wallet holds both assets already, as after its first sweep: the one-off cost of
    // creating its balances would otherwise land on the first batch measured.
    await (await chain.token.getFunction("mint")(chain.hotWallet, 1n)).wait();
    await setBalance(chain.provider, chain.hotWallet, 1n);
    const perItem = new Map<Kind, Map<number, bigint>>(KINDS.map((kind) => [kind, new Map()]));
    const notes: string[] = [];
    for (const n of BATCH_SIZES) {
      const record = (kind: Kind, { gasUsed, gasLimit }: Measurement) => {
        perItem.get(kind)!.set(n, gasUsed / BigInt(n));
        if (gasLimit > OSAKA_TX_GAS_CAP) {
          notes.push(`${kind} x ${n} needs a gas limit of ${fmt(gasLimit)} (gross, before refunds), above the 2^24 cap of Osaka chains: split it there`);
        }
      };
      const tokenOnly = depositWallets(chain, `token-only ${n}`, n);
      const holdingNative = depositWallets(chain, `holding native ${n}`, n);

      await mintAll(chain, tokenOnly);
      record("first_new", await measure(chain, tokenItems(chain, tokenOnly), tokenOnly.map((w) => authorizeFresh(chain, w))));

      await Promise.all(holdingNative.map((w) => setBalance(chain.provider, w.address, parseEther("0.01"))));
      await mintAll(chain, holdingNative);
      record("first", await measure(chain, tokenItems(chain, holdingNative), holdingNative.map((w) => authorizeFresh(chain, w))));

      // The token-only addresses are delegated now.
      await mintAll(chain, tokenOnly);
      record("repeat", await measure(chain, tokenItems(chain, tokenOnly)));

      await Promise.all(tokenOnly.map((w) => setBalance(chain.provider, w.address, parseEther("0.5"))));
      record("native", await measure(chain, tokenOnly.map((w) => ({ account: w.address, token: NATIVE_TOKEN, amount: 0n, keepOneUnit: false }))));
    }
    const classic = await classicSweep(chain, labelledWallet(chain.provider, "classic"));
    printTable(clientVersion, perItem, classic);
    console.log(`block gas limit ${fmt(blockGasLimit)}: each batch went in one transaction`);
    for (const note of notes) console.log(`note: ${note}`);
    console.log();
  } finally {
    await chain.stop();
  }
}

function depositWallets(chain: SweepChain, label: string, n: number): Wallet[] {
  return Array.from({ length: n }, (_, i) => labelledWallet(chain.provider, `${label} #${i}`));
}

/** An address that has never sent a transaction signs for nonce 0. */
function authorizeFresh(chain: SweepChain, wallet: Wallet): Authorization {
  return wallet.authorizeSync({ address: chain.delegateAddress, nonce: 0, chainId: chain.chainId });
}

function tokenItems(chain: SweepChain, wallets: Wallet[]): SweepItem[] {
  return wallets.map((w) => ({ account: w.address, token: chain.tokenAddress, amount: 0n, keepOneUnit: false }));
}

async function measure(chain: SweepChain, items: SweepItem[], authorizations: Authorization[] = []): Promise<Measurement> {
  const { receipt, outcomes } = await sendBatch(chain, items, authorizations);
  const failed = outcomes.find((o) => !o.swept);
  if (outcomes.length !== items.length || failed) throw new Error(`a benchmark batch did not sweep every item: ${failed?.account} ${!failed?.swept && failed?.reason}`);
  const tx = await chain.provider.getTransaction(receipt.hash);
  return { gasUsed: receipt.gasUsed, gasLimit: tx!.gasLimit };
}

/**
 * Mints to every wallet, sending all the transactions before waiting for any; one send at a time,
 * in nonce order, as hardhat's automine refuses a nonce ahead of the next.
 */
async function mintAll(chain: SweepChain, wallets: Wallet[]): Promise<void> {
  const mint = chain.token.getFunction("mint");
  const { maxFeePerGas, maxPriorityFeePerGas } = await chain.provider.getFeeData();
  const overrides = { gasLimit: 100_000n, maxFeePerGas, maxPriorityFeePerGas };
  const sent = [];
  for (const w of wallets) sent.push(await mint(w.address, DEPOSIT, overrides));
  await Promise.all(sent.map((tx) => tx.wait()));
}

/**
 * Without the service: the gas wallet tops up a token-only address with the gas of one token
 * transfer, then the address sends its whole balance itself. A native coin deposit is sent by
 * the address itself.
 */
async function classicSweep(chain: SweepChain, deposit: Wallet): Promise<Classic> {
  await mintAll(chain, [deposit]);
  const { maxFeePerGas } = await chain.provider.getFeeData();
  const transferGas = 60_000n;
  const topUp = await (await chain.operator.sendTransaction({ to: deposit.address, value: transferGas * maxFeePerGas! })).wait();
  const transfer = await (await deposit.sendTransaction({ ...(await chain.token.getFunction("transfer").populateTransaction(chain.hotWallet, DEPOSIT)), gasLimit: transferGas, nonce: 0 })).wait();
  await setBalance(chain.provider, deposit.address, parseEther("0.5"));
  const native = await (await deposit.sendTransaction({ to: chain.hotWallet, value: parseEther("0.4"), nonce: 1 })).wait();
  return { topUp: topUp!.gasUsed, transfer: transfer!.gasUsed, native: native!.gasUsed };
}

function printTable(node: string, perItem: Map<Kind, Map<number, bigint>>, classic: Classic): void {
  const classicToken = classic.topUp + classic.transfer;
  const header = ["kind", ...BATCH_SIZES.map((n) => `n=${n}`), "classic"];
  const rows = KINDS.map((kind) => [kind, ...BATCH_SIZES.map((n) => fmt(perItem.get(kind)!.get(n)!)), fmt(kind === "native" ? classic.native : classicToken)]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(" | ")} |`;
  console.log(`Gas per item on ${node}: batch transaction gasUsed / items (21,000 base and authorizations included)`);
  console.log(line(header));
  console.log(`|${widths.map((w, i) => (i === 0 ? "-".repeat(w + 2) : `${"-".repeat(w + 1)}:`)).join("|")}|`);
  for (const row of rows) console.log(line(row));
  console.log(`classic token sweep: top-up ${fmt(classic.topUp)} + the address's own token transfer ${fmt(classic.transfer)}; classic native: the address's own transfer`);
}

function fmt(gas: bigint): string {
  return gas.toLocaleString("en-US");
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
