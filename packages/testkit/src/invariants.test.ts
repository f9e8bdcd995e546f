import { Wallet, type TransactionRequest } from "ethers";
import {
  deliveryBreaches,
  lowBalanceBreaches,
  matchSweeps,
  minedNonceBreaches,
  nonceConflicts,
  replacementsOf,
  transactionContent,
  withdrawalBreaches,
  type RecordedEvent,
  type StoredTransaction,
  type StoredWithdrawal,
  type TransactionEntry,
} from "./invariants";

const gasWallet = new Wallet("0x" + "11".repeat(32));
const depositOwner = new Wallet("0x" + "22".repeat(32));
const DELEGATE = "0x00000000000000000000000000000000000000d1";
const OTHER = "0x00000000000000000000000000000000000000d2";

async function stored(nonce: number, fields: Partial<TransactionRequest> & { batchId?: string | null; status?: string; storedNonce?: number; replacement?: number } = {}): Promise<StoredTransaction> {
  const { batchId = "b1", status = "confirmed", storedNonce = nonce, replacement = 0, ...request } = fields;
  const rawTx = await gasWallet.signTransaction({
    type: 2,
    chainId: 97,
    nonce,
    to: DELEGATE,
    data: "0x1234",
    value: 0n,
    gasLimit: 100_000n,
    maxFeePerGas: 2_000_000_000n,
    maxPriorityFeePerGas: 1_000_000_000n,
    ...request,
  });
  return { gasWalletId: "w1", chainId: 97, nonce: BigInt(storedNonce), hash: `0x${rawTx.slice(-8)}${nonce}${status}`, status, batchId, rawTx, replacement };
}

describe("one content per nonce", () => {
  it("takes a replacement at higher fees as the same content, and another call, value, recipient, batch or authorization as another", async () => {
    const base = await stored(0);
    const authorization = depositOwner.authorizeSync({ address: DELEGATE, nonce: 0n, chainId: 97n });
    const same = [await stored(0, { maxFeePerGas: 9_000_000_000n, maxPriorityFeePerGas: 3_000_000_000n, gasLimit: 150_000n })];
    const other = [
      await stored(0, { data: "0x1235" }),
      await stored(0, { value: 1n }),
      await stored(0, { to: OTHER }),
      await stored(0, { batchId: "b2" }),
      await stored(0, { type: 4, authorizationList: [authorization] }),
    ];
    for (const tx of same) expect(transactionContent(tx)).toBe(transactionContent(base));
    for (const tx of other) expect(transactionContent(tx)).not.toBe(transactionContent(base));
  });

  /** The `n`th replacement at the nonce: both fees 12.5% above the one before, as the chain-sender bumps them. */
  const bumped = (n: number) => ({ replacement: n, maxFeePerGas: (2_000_000_000n * 9n ** BigInt(n)) / 8n ** BigInt(n), maxPriorityFeePerGas: (1_000_000_000n * 9n ** BigInt(n)) / 8n ** BigInt(n) });

  it.each<[string, number, () => Promise<StoredTransaction[]>]>([
    ["a nonce with its replacements", 0, async () => [await stored(0, { status: "replaced" }), await stored(0, { ...bumped(1), status: "replaced" }), await stored(0, bumped(2))]],
    ["a replacement raising only the max fee", 1, async () => [await stored(0, { status: "replaced" }), await stored(0, { replacement: 1, maxFeePerGas: 3_000_000_000n })]],
    ["a replacement above the first but not the second", 1, async () => [await stored(0, { status: "replaced" }), await stored(0, { ...bumped(2), replacement: 1, status: "replaced" }), await stored(0, { ...bumped(1), replacement: 2 })]],
    ["two nonces of different content", 0, async () => [await stored(0), await stored(1, { data: "0xabcd" })]],
    ["one nonce of two contents", 1, async () => [await stored(0), await stored(0, { ...bumped(1), data: "0xabcd", status: "dropped" })]],
    ["the same nonce of two gas wallets", 0, async () => [await stored(0), { ...(await stored(0, { data: "0xabcd" })), gasWalletId: "w2" }]],
    ["a transaction stored at another nonce than it was signed at", 1, async () => [await stored(3, { storedNonce: 2 })]],
  ])("%s: %i breach(es)", async (_name, breaches, transactions) => {
    expect(nonceConflicts(await transactions())).toHaveLength(breaches);
  });
});

describe("replacements", () => {
  const replaced = (n: number, fields: Parameters<typeof stored>[1] = {}) => stored(0, { replacement: n, maxFeePerGas: 2_000_000_000n + BigInt(n) * 500_000_000n, maxPriorityFeePerGas: 1_000_000_000n + BigInt(n) * 200_000_000n, ...fields });

  it.each<[string, () => Promise<StoredTransaction[]>, number[]]>([
    ["none", async () => [await stored(0), await stored(1)], []],
    ["a transaction replaced twice", async () => [await replaced(2), await replaced(0), await replaced(1)], [1, 2]],
    ["a nonce filled by a self-transfer of another content", async () => [await replaced(0), await replaced(1, { to: gasWallet.address, data: "0x" })], []],
    ["replacements at two nonces", async () => [await replaced(0), await replaced(1), await stored(1), await stored(1, { replacement: 1, maxFeePerGas: 9_000_000_000n, maxPriorityFeePerGas: 3_000_000_000n })], [1, 1]],
  ])("%s", async (_name, transactions, found) => {
    expect(replacementsOf(await transactions()).map((t) => t.replacement)).toEqual(found);
  });
});

describe("what the chain mined at each nonce", () => {
  it.each<[string, Array<[number, string]>, number, number[], string[]]>([
    ["each nonce mined as its confirmed transaction", [[0, "confirmed"], [1, "confirmed"]], 2, [0, 1], []],
    ["a replaced one beside the mined one", [[0, "replaced"], [0, "confirmed"]], 1, [1], []],
    ["a nonce taken by a transaction we never stored", [[0, "confirmed"]], 2, [0], ["nonce 1 was mined with a transaction never stored"]],
    ["the mined one stored as replaced", [[0, "replaced"], [0, "confirmed"]], 1, [0], ["nonce 0 was mined as", "has no receipt"]],
    ["the mined one stored as dropped", [[0, "dropped"]], 1, [0], ["stored as dropped"]],
    ["one still in flight after the drain", [[0, "confirmed"], [1, "broadcast"]], 1, [0], ["is still broadcast"]],
  ])("%s", async (_name, rows, chainNonce, minedRows, expected) => {
    const transactions = await Promise.all(rows.map(([nonce, status], i) => stored(nonce, { status, maxFeePerGas: BigInt(2_000_000_000 + i) })));
    const mined = new Set(minedRows.map((i) => transactions[i]!.hash));
    const breaches = minedNonceBreaches(transactions, chainNonce, mined);
    expect(breaches).toHaveLength(expected.length);
    expected.forEach((text, i) => expect(breaches[i]).toContain(text));
  });
});

describe("swept sweeps against the Swept events on chain", () => {
  const sweep = (id: string, account: string, txHash: string, amount: bigint) => ({ id, account, txHash, amount });
  const event = (account: string, txHash: string, amount: bigint) => ({ account, txHash, amount });

  it.each<[string, ReturnType<typeof sweep>[], ReturnType<typeof event>[], number, number]>([
    ["one event per sweep", [sweep("s1", "0xA", "0x1", 5n), sweep("s2", "0xA", "0x2", 7n)], [event("0xa", "0x1", 5n), event("0xA", "0x2", 7n)], 0, 0],
    ["a deposit swept twice", [sweep("s1", "0xA", "0x1", 5n)], [event("0xA", "0x1", 5n), event("0xA", "0x2", 5n)], 1, 0],
    ["a sweep carried twice in one transaction", [sweep("s1", "0xA", "0x1", 5n)], [event("0xA", "0x1", 5n), event("0xA", "0x1", 5n)], 1, 0],
    ["a swept sweep with no event", [sweep("s1", "0xA", "0x1", 5n)], [], 0, 1],
    ["an event of another amount", [sweep("s1", "0xA", "0x1", 5n)], [event("0xA", "0x1", 6n)], 1, 1],
  ])("%s", (_name, sweeps, events, doubles, missing) => {
    const match = matchSweeps(sweeps, events);
    expect([match.doubles.length, match.missing.length]).toEqual([doubles, missing]);
  });
});

describe("every event delivered", () => {
  it.each<[string, Array<[string, string | undefined]>, string[], string[]]>([
    ["delivered and received", [["e1", "delivered"]], ["e1"], []],
    ["still pending", [["e1", "pending"]], [], ["delivery pending"]],
    ["failed", [["e1", "failed"]], ["e1"], ["delivery failed"]],
    ["never opened", [["e1", undefined]], [], ["never opened"]],
    ["marked delivered but not received", [["e1", "delivered"]], ["e2"], ["never received with a valid signature"]],
  ])("%s", (_name, rows, received, expected) => {
    const breaches = deliveryBreaches(
      rows.map(([id, delivery]) => ({ id, type: "sweep.swept", delivery })),
      new Set(received),
    );
    expect(breaches).toHaveLength(expected.length);
    expected.forEach((text, i) => expect(breaches[i]).toContain(text));
  });
});

describe("every withdrawal ended and booked once", () => {
  const GAS = 21_000n * 3_000_000_000n;
  const sent = async (status: string, succeeded: boolean | null = true, gasCost: bigint | null = GAS) => {
    const tx = await stored(0, { to: OTHER, data: "0x", value: 1_000n, batchId: "w", status });
    return { hash: tx.hash, status, rawTx: tx.rawTx, succeeded, gasCost };
  };
  const withdrawal = (status: string, transactions: StoredWithdrawal["transactions"]): StoredWithdrawal => ({ batchId: "w", status, transactions });
  const entry = (kind: string, txHash: string, amount: bigint): TransactionEntry => ({ kind, txHash, amount });

  it.each<[string, () => Promise<[StoredWithdrawal[], (hash: string) => TransactionEntry[]]>, string[]]>([
    ["sent and booked as value and gas", async () => [[withdrawal("confirmed", [await sent("confirmed")])], (h) => [entry("withdrawal", h, -(1_000n + GAS))]], []],
    ["nothing left to send", async () => [[withdrawal("confirmed", [])], () => []], []],
    ["failed before sending", async () => [[withdrawal("failed", [])], () => []], []],
    ["a failed receipt booked as gas", async () => [[withdrawal("confirmed", [await sent("confirmed", false)])], (h) => [entry("gas", h, -GAS)]], []],
    ["still sent", async () => [[withdrawal("sent", [await sent("broadcast", null, null)])], () => []], ["is still sent"]],
    ["never booked", async () => [[withdrawal("confirmed", [await sent("confirmed")])], () => []], ["booked withdrawal [] and gas []"]],
    ["booked as gas although it went through", async () => [[withdrawal("confirmed", [await sent("confirmed")])], (h) => [entry("gas", h, -GAS)]], ["booked withdrawal [] and gas ["]],
    ["booked without its value", async () => [[withdrawal("confirmed", [await sent("confirmed")])], (h) => [entry("withdrawal", h, -GAS)]], ["expected withdrawal [-"]],
    ["booked twice", async () => [[withdrawal("confirmed", [await sent("confirmed")])], (h) => [entry("withdrawal", h, -(1_000n + GAS)), entry("withdrawal", h, -(1_000n + GAS))]], ["booked withdrawal [-"]],
    ["a withdrawal entry of no withdrawal", async () => [[withdrawal("failed", [])], () => [entry("withdrawal", "0xfeed", -5n)]], ["names 0xfeed, no mined withdrawal"]],
    ["failed with a transaction mined", async () => [[withdrawal("failed", [await sent("confirmed")])], (h) => [entry("withdrawal", h, -(1_000n + GAS))]], ["failed, yet"]],
  ])("%s", async (_name, setup, expected) => {
    const [withdrawals, entriesOf] = await setup();
    const hash = withdrawals[0]!.transactions[0]?.hash ?? "0x";
    const breaches = withdrawalBreaches(withdrawals, entriesOf(hash));
    expect(breaches).toHaveLength(expected.length);
    expected.forEach((text, i) => expect(breaches[i]).toContain(text));
  });
});

describe("one balance.low for one fall", () => {
  const alert = { partnerId: "p1", chainId: 97, threshold: 1_000n };
  const low = (payload: Record<string, unknown>, partnerId = "p1"): RecordedEvent => ({ partnerId, type: "balance.low", payload: { chain_id: 97, gas_wallet: gasWallet.address, balance: "999", threshold: "1000", ...payload } });

  it.each<[string, RecordedEvent[], string | null]>([
    ["fired once below the threshold", [low({}), { partnerId: "p1", type: "sweep.swept", payload: null }], null],
    ["never fired", [], "0 balance.low events"],
    ["fired on another chain or for another partner", [low({ chain_id: 11155111 }), low({}, "p2")], "0 balance.low events"],
    ["fired twice", [low({}), low({ balance: "998" })], "2 balance.low events"],
    ["naming another threshold", [low({ threshold: "2000" })], "names threshold 2000"],
    ["at a balance not below the threshold", [low({ balance: "1000" })], "names balance 1000"],
  ])("%s", (_name, events, expected) => {
    const breaches = lowBalanceBreaches(alert, events);
    if (expected === null) expect(breaches).toEqual([]);
    else expect(breaches).toEqual([expect.stringContaining(expected)]);
  });
});
