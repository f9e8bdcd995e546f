/**
 * Gas report of sweep batches on a fresh node of each implementation, anvil and hardhat's EDR
 * (automine, 30M block gas limit): gas per item (the batch transaction's gasUsed, 21,000 base and
 * authorizations included, divided by the number of items) by kind and batch size, next to the
 * classic sweep measured on the same node. The two differ where anvil departs from EIP-7702: it
 * refunds an authorization's 12,500 for an address without an account too. Then the same on an
 * OP-stack chain (anvil in optimism mode, L1Block at Base's scalars and a 5 gwei L1 base fee): the
 * L2 gas, and the L1 data fee per item in wei, which the chain charges beyond it. Figures are
 * printed, not asserted.
 *
 *   tsx packages/contracts/bench/gas-report.ts
 */
import { REALISTIC_L1_BLOCK_FEES, setL1BlockFees, startAnvil } from "@sweep/anvil";
import { L1_BLOCK_ADDRESS, L1_BLOCK_SLOTS, fjordL1Fee } from "@sweep/fees";
import { startHardhatNode } from "@sweep/hardhat-node";
import { getBytes, parseEther, parseUnits, type Authorization, type TransactionReceipt, type Wallet } from "ethers";
import { NATIVE_TOKEN, type SweepItem } from "../src";
import { labelledWallet, sendBatch, setBalance, startSweepChain, type StartNode, type SweepChain } from "../test/support/sweep-chain";

/** anvil as an OP-stack chain, charging L1 data at realistic L1Block values. */
const startOpStackAnvil: StartNode = async (options) => {
  const node = await startAnvil({ ...options, optimism: true });
  await setL1BlockFees(node.rpcUrl, REALISTIC_L1_BLOCK_FEES);
  return node;
};

const NODES: ReadonlyArray<{ start: StartNode; l1DataFee: boolean }> = [
  { start: startAnvil, l1DataFee: false },
  { start: startHardhatNode, l1DataFee: false },
  { start: startOpStackAnvil, l1DataFee: true },
];

const BATCH_SIZES = [1, 10, 100, 500];
const KINDS = ["first_new", "first", "repeat", "native"] as const;
type Kind = (typeof KINDS)[number];
/** EIP-7825 (Osaka) caps a transaction's gas limit at 2^24 on public chains; anvil does not. */
const OSAKA_TX_GAS_CAP = 1n << 24n;
const DEPOSIT = parseUnits("125.5", 6);

interface Measurement {
  gasUsed: bigint;
  gasLimit: bigint;
  /** the L1 data fee it paid (0 where the chain charges none) */
  l1Fee: bigint;
}

/** The classic sweep's transactions: the gas each used and the L1 data fee each paid. */
interface Classic {
  topUp: Cost;
  transfer: Cost;
  native: Cost;
}

interface Cost {
  gas: bigint;
  l1Fee: bigint;
}

async function main(): Promise<void> {
  for (const { start, l1DataFee } of NODES) await report(start, l1DataFee);
}

/** Measures every kind and batch size on a fresh node and prints its table, named by the node's version. */
async function report(start: StartNode, l1DataFee: boolean): Promise<void> {
  const chain = await startSweepChain(start);
  try {
    const clientVersion = (await chain.provider.send("web3_clientVersion", [])) as string;
    const blockGasLimit = (await chain.provider.getBlock("latest"))!.gasLimit;
    // The hot wallet holds both assets already, as after its first sweep: the one-off cost of
    // creating its balances would otherwise land on the first batch measured.
    await (await chain.token.getFunction("mint")(chain.hotWallet, 1n)).wait();
    await setBalance(chain.provider, chain.hotWallet, 1n);
    const perItem = new Map<Kind, Map<number, bigint>>(KINDS.map((kind) => [kind, new Map()]));
    const l1PerItem = new Map<Kind, Map<number, bigint>>(KINDS.map((kind) => [kind, new Map()]));
    const notes: string[] = [];
    for (const n of BATCH_SIZES) {
      const record = (kind: Kind, { gasUsed, gasLimit, l1Fee }: Measurement) => {
        perItem.get(kind)!.set(n, gasUsed / BigInt(n));
        l1PerItem.get(kind)!.set(n, l1Fee / BigInt(n));
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
    if (l1DataFee) printL1Table(perItem, l1PerItem, classic);
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
  return { gasUsed: receipt.gasUsed, gasLimit: tx!.gasLimit, l1Fee: await l1FeeOf(chain, receipt) };
}

/**
 * The L1 data fee a mined transaction paid, as the chain computes it from its signed bytes at the
 * L1Block values the report set (anvil's receipts leave it out); 0 on a chain that charges none.
 */
async function l1FeeOf(chain: SweepChain, receipt: TransactionReceipt): Promise<bigint> {
  const scalars = BigInt(await chain.provider.getStorage(L1_BLOCK_ADDRESS, L1_BLOCK_SLOTS.scalars, receipt.blockNumber));
  if (scalars === 0n) return 0n;
  const raw = (await chain.provider.send("eth_getRawTransactionByHash", [receipt.hash])) as string;
  return fjordL1Fee(getBytes(raw), REALISTIC_L1_BLOCK_FEES);
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
  // On an OP-stack chain the top-up also pays for the transfer's L1 data.
  const topUp = await (await chain.operator.sendTransaction({ to: deposit.address, value: transferGas * maxFeePerGas! + parseEther("0.001") })).wait();
  const transfer = await (await deposit.sendTransaction({ ...(await chain.token.getFunction("transfer").populateTransaction(chain.hotWallet, DEPOSIT)), gasLimit: transferGas, nonce: 0 })).wait();
  await setBalance(chain.provider, deposit.address, parseEther("0.5"));
  const native = await (await deposit.sendTransaction({ to: chain.hotWallet, value: parseEther("0.4"), nonce: 1 })).wait();
  const cost = async (receipt: TransactionReceipt | null) => ({ gas: receipt!.gasUsed, l1Fee: await l1FeeOf(chain, receipt!) });
  return { topUp: await cost(topUp), transfer: await cost(transfer), native: await cost(native) };
}

function printTable(node: string, perItem: Map<Kind, Map<number, bigint>>, classic: Classic): void {
  const classicToken = classic.topUp.gas + classic.transfer.gas;
  const header = ["kind", ...BATCH_SIZES.map((n) => `n=${n}`), "classic"];
  const rows = KINDS.map((kind) => [kind, ...BATCH_SIZES.map((n) => fmt(perItem.get(kind)!.get(n)!)), fmt(kind === "native" ? classic.native.gas : classicToken)]);
  console.log(`Gas per item on ${node}: batch transaction gasUsed / items (21,000 base and authorizations included)`);
  printRows(header, rows);
  console.log(`classic token sweep: top-up ${fmt(classic.topUp.gas)} + the address's own token transfer ${fmt(classic.transfer.gas)}; classic native: the address's own transfer`);
}

/** The OP-stack chain's L1 data fee per item, in wei, beside the gas table above: what the chain charges beyond the L2 gas. */
function printL1Table(perItem: Map<Kind, Map<number, bigint>>, l1PerItem: Map<Kind, Map<number, bigint>>, classic: Classic): void {
  const fees = REALISTIC_L1_BLOCK_FEES;
  const header = ["kind", ...BATCH_SIZES.map((n) => `n=${n}`), "classic"];
  const classicToken = classic.topUp.l1Fee + classic.transfer.l1Fee;
  const rows = KINDS.map((kind) => [kind, ...BATCH_SIZES.map((n) => fmt(l1PerItem.get(kind)!.get(n)!)), fmt(kind === "native" ? classic.native.l1Fee : classicToken)]);
  console.log(
    `L1 data fee per item on the same OP-stack chain, wei (L1 base fee ${fmt(fees.l1BaseFee)}, blob base fee ${fmt(fees.blobBaseFee)}, scalars ${fees.baseFeeScalar} and ${fees.blobBaseFeeScalar}; L2 gas as above)`,
  );
  printRows(header, rows);
  const n = BATCH_SIZES[1]!;
  const share = (kind: Kind) => {
    const l1 = l1PerItem.get(kind)!.get(n)!;
    const bps = (l1 * 10_000n) / (l1 + perItem.get(kind)!.get(n)! * 1_000_000n);
    return `${kind} ${bps / 100n}.${(bps % 100n).toString().padStart(2, "0")}%`;
  };
  console.log(`at a 0.001 gwei L2 gas price (Base's usual), the L1 fee is this share of an item's cost at n=${n}: ${KINDS.map(share).join(", ")}`);
}

function printRows(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(" | ")} |`;
  console.log(line(header));
  console.log(`|${widths.map((w, i) => (i === 0 ? "-".repeat(w + 2) : `${"-".repeat(w + 1)}:`)).join("|")}|`);
  for (const row of rows) console.log(line(row));
}

function fmt(gas: bigint): string {
  return gas.toLocaleString("en-US");
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
