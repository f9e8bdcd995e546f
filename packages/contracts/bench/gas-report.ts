/**
 * Gas report of sweep batches on a fresh anvil: gas per item (the batch transaction's gasUsed,
 * 21,000 base included, divided by the number of items) by kind and batch size, next to the
 * classic sweep measured in the same run.
 *
 *   tsx packages/contracts/bench/gas-report.ts
 */
import { Wallet, parseEther, parseUnits, type Authorization } from "ethers";
import { NATIVE_TOKEN, type SweepItem } from "../src";
import { labelledWallet, sendBatch, setBalance, startSweepChain, type SweepChain } from "../test/support/sweep-chain";

const BATCH_SIZES = [1, 10, 100, 500];
const KINDS = ["first_new", "first", "repeat", "native"] as const;
type Kind = (typeof KINDS)[number];
/** EIP-7825 (Osaka) caps a transaction at 2^24 gas on public chains; anvil does not enforce it. */
const TX_GAS_CAP = 1n << 24n;
const DEPOSIT = parseUnits("125.5", 6);

async function main(): Promise<void> {
  const chain = await startSweepChain();
  try {
    const blockGasLimit = (await chain.provider.getBlock("latest"))!.gasLimit;
    const classic = await classicSweep(chain, labelledWallet(chain.provider, "classic"));
    const perItem = new Map<Kind, Map<number, bigint>>(KINDS.map((kind) => [kind, new Map()]));
    const notes: string[] = [];
    for (const n of BATCH_SIZES) {
      const wallets = depositWallets(chain, `fresh-${n}`, n);
      const funded = depositWallets(chain, `funded-${n}`, n);
      const record = (kind: Kind, gasUsed: bigint) => {
        perItem.get(kind)!.set(n, gasUsed / BigInt(n));
        if (gasUsed > TX_GAS_CAP) notes.push(`${kind} x ${n}: ${gasUsed} gas is above the 2^24 transaction cap of Osaka chains; split such batches`);
      };

      await mintAll(chain, wallets);
      record("first_new", await measure(chain, tokenItems(chain, wallets), wallets.map((w) => authorize(chain, w))));

      await Promise.all(funded.map((w) => setBalance(chain.provider, w.address, parseEther("0.01"))));
      await mintAll(chain, funded);
      record("first", await measure(chain, tokenItems(chain, funded), funded.map((w) => authorize(chain, w))));

      await mintAll(chain, wallets);
      record("repeat", await measure(chain, tokenItems(chain, wallets)));

      await Promise.all(wallets.map((w) => setBalance(chain.provider, w.address, parseEther("0.5"))));
      record("native", await measure(chain, wallets.map((w) => ({ account: w.address, token: NATIVE_TOKEN, amount: 0n, keepOneUnit: false }))));
    }
    printTable(perItem, classic, blockGasLimit);
    for (const note of notes) console.log(`note: ${note}`);
  } finally {
    await chain.stop();
  }
}

function depositWallets(chain: SweepChain, label: string, n: number): Wallet[] {
  return Array.from({ length: n }, (_, i) => labelledWallet(chain.provider, `${label}-${i}`));
}

/** Fresh deposit addresses sign for nonce 0. */
function authorize(chain: SweepChain, wallet: Wallet): Authorization {
  return wallet.authorizeSync({ address: chain.delegateAddress, nonce: 0, chainId: chain.chainId });
}

function tokenItems(chain: SweepChain, wallets: Wallet[]): SweepItem[] {
  const token = chain.token.target as string;
  return wallets.map((w) => ({ account: w.address, token, amount: 0n, keepOneUnit: false }));
}

async function measure(chain: SweepChain, items: SweepItem[], authorizations: Authorization[] = []): Promise<bigint> {
  const { receipt, outcomes } = await sendBatch(chain, items, authorizations);
  const failed = outcomes.filter((o) => !o.swept);
  if (outcomes.length !== items.length || failed.length > 0) throw new Error(`benchmark batch did not sweep every item: ${JSON.stringify(failed[0], (_, v: unknown) => (typeof v === "bigint" ? v.toString() : v))}`);
  return receipt.gasUsed;
}

/** Mints to every wallet, sending all the transactions before waiting for any. */
async function mintAll(chain: SweepChain, wallets: Wallet[]): Promise<void> {
  const mint = chain.token.getFunction("mint");
  const { maxFeePerGas, maxPriorityFeePerGas } = await chain.provider.getFeeData();
  const overrides = { gasLimit: 100_000n, maxFeePerGas, maxPriorityFeePerGas };
  const sent = await Promise.all(wallets.map((w) => mint(w.address, DEPOSIT, overrides)));
  await Promise.all(sent.map((tx) => tx.wait()));
}

/**
 * Without the service: the gas wallet tops up a token-only address with the gas of one token
 * transfer, then the address sends its whole balance itself.
 */
async function classicSweep(chain: SweepChain, deposit: Wallet): Promise<{ topUp: bigint; transfer: bigint; native: bigint }> {
  await mintAll(chain, [deposit]);
  const feeData = await chain.provider.getFeeData();
  const transferGas = 60_000n;
  const topUp = await (await chain.operator.sendTransaction({ to: deposit.address, value: transferGas * feeData.maxFeePerGas! })).wait();
  const token = chain.token.connect(deposit) as typeof chain.token;
  const transfer = await (await token.getFunction("transfer")(chain.hotWallet, DEPOSIT, { gasLimit: transferGas, nonce: 0 })).wait();
  const nativeSend = await (await deposit.sendTransaction({ to: chain.hotWallet, value: 1n, nonce: 1 })).wait();
  return { topUp: topUp!.gasUsed, transfer: transfer!.gasUsed, native: nativeSend!.gasUsed };
}

function printTable(perItem: Map<Kind, Map<number, bigint>>, classic: { topUp: bigint; transfer: bigint; native: bigint }, blockGasLimit: bigint): void {
  const classicToken = classic.topUp + classic.transfer;
  const header = ["kind", ...BATCH_SIZES.map((n) => `n=${n}`), "classic"];
  const rows = KINDS.map((kind) => [kind, ...BATCH_SIZES.map((n) => perItem.get(kind)!.get(n)!.toLocaleString("en-US")), (kind === "native" ? classic.native : classicToken).toLocaleString("en-US")]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(" | ")} |`;
  console.log("Gas per item: batch transaction gasUsed / items (21,000 base and authorizations included)");
  console.log(line(header));
  console.log(`|${widths.map((w, i) => (i === 0 ? "-".repeat(w + 2) : `${"-".repeat(w + 1)}:`)).join("|")}|`);
  for (const row of rows) console.log(line(row));
  console.log(`classic token sweep = top-up ${classic.topUp.toLocaleString("en-US")} + token transfer ${classic.transfer.toLocaleString("en-US")}; classic native = the address's own transfer`);
  console.log(`anvil block gas limit ${blockGasLimit.toLocaleString("en-US")}: every batch went in one transaction`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
