import {
  presentChainBalance,
  presentChainTariff,
  presentHotWallet,
  presentLedgerEntry,
  presentSettings,
  presentSweep,
  presentSweepPolicy,
  presentWebhook,
  presentWebhookDelivery,
  type HotWalletRow,
  type LedgerEntryRow,
  type SweepPolicyRow,
  type SweepRow,
  type WebhookDeliveryRow,
} from "./presenters";
import { Balance, ChainTariff, HotWallet, LedgerEntry, Settings, Sweep, SweepPolicy, Webhook, WebhookDelivery } from "./responses";

/** Prisma's Decimal prints large values with exponents; toFixed does not. */
const decimal = (digits: string) => ({ toFixed: (dp: number) => (dp === 0 ? digits : `${digits}.${"0".repeat(dp)}`), toString: () => "1e+77" });

const created = new Date("2026-11-21T12:00:00.123Z");
const updated = new Date("2026-11-21T12:00:05Z");

const queued: SweepRow = {
  id: "0b0f6a0e-9d43-4a53-9d0a-0f3d3cf5c2a1",
  externalId: null,
  chainId: 97,
  hotWallet: { address: "0x52908400098527886E0F7030069857D2E4169EE7" },
  account: "0x8617E340B3D01FA5F11F306F4090FD50E238070D",
  token: "tBNB",
  tokenAddress: null,
  amount: null,
  keepOneUnit: false,
  status: "queued",
  reason: null,
  attempts: 0,
  sweptAmount: null,
  txHash: null,
  kind: null,
  gas: null,
  gasCost: null,
  fee: null,
  classicGas: null,
  rateBps: null,
  createdBy: "partner",
  createdAt: created,
  updatedAt: updated,
};

const big = "115792089237316195423570985008687907853269984665640564039457584007913129639935";

describe("presentSweep", () => {
  it("omits every optional field without a value", () => {
    expect(presentSweep(queued)).toEqual({
      id: queued.id,
      chain_id: 97,
      hot_wallet: "0x52908400098527886E0F7030069857D2E4169EE7",
      account: "0x8617E340B3D01FA5F11F306F4090FD50E238070D",
      token: "tBNB",
      status: "queued",
      attempts: 0,
      created_at: "2026-11-21T12:00:00.123Z",
      updated_at: "2026-11-21T12:00:05.000Z",
    });
  });

  it("gives a swept sweep every field, amounts as digit strings (no exponent), gas as integers", () => {
    const swept: SweepRow = {
      ...queued,
      externalId: "order-1",
      token: "USDT",
      tokenAddress: "0xdAC17F958D2ee523a2206206994597C13D831ec7",
      amount: decimal(big),
      keepOneUnit: true,
      status: "swept",
      attempts: 1,
      sweptAmount: decimal("999999"),
      txHash: `0x${"ab".repeat(32)}`,
      kind: "first_new",
      gas: 45_123n,
      gasCost: decimal("45123000000000"),
      fee: decimal("0"),
      classicGas: 50_677n,
      rateBps: 7000,
    };
    const body = presentSweep(swept);
    expect(body).toEqual({
      ...presentSweep(queued),
      external_id: "order-1",
      token: "USDT",
      token_address: "0xdAC17F958D2ee523a2206206994597C13D831ec7",
      amount: big,
      keep_one_unit: true,
      status: "swept",
      attempts: 1,
      swept_amount: "999999",
      tx_hash: swept.txHash,
      kind: "first_new",
      gas: 45123,
      gas_cost: "45123000000000",
      fee: "0",
      classic_gas: 50677,
      rate_bps: 7000,
    });
    expect(Sweep.parse(body)).toEqual(body);
  });

  it("shows swept_amount and fee only with swept, and a retry's reason while queued", () => {
    const body = presentSweep({ ...queued, status: "queued", reason: "chain_unavailable", attempts: 2, sweptAmount: decimal("1"), fee: decimal("1") });
    expect(body).toMatchObject({ status: "queued", reason: "chain_unavailable", attempts: 2 });
    expect(body).not.toHaveProperty("swept_amount");
    expect(body).not.toHaveProperty("fee");
  });

  it("says created_by policy only for a policy's sweep", () => {
    expect(presentSweep({ ...queued, createdBy: "policy" })).toMatchObject({ created_by: "policy" });
    expect(presentSweep(queued)).not.toHaveProperty("created_by");
  });
});

describe("presentSweepPolicy", () => {
  const row: SweepPolicyRow = {
    chainId: 97,
    token: "USDT",
    tokenAddress: "0x55d398326f99059fF775485246999027B3197955",
    hotWallet: { address: "0x52908400098527886E0F7030069857D2E4169EE7" },
    enabled: true,
    minBalance: decimal("1000000"),
    maxFeePerGas: null,
    maxCostBps: null,
    tokenValueWei: null,
    schedule: "asap",
    scheduleAt: 0,
    nextRunAt: null,
    createdAt: created,
    updatedAt: updated,
  };

  it.each<[string, Partial<SweepPolicyRow>, object]>([
    ["asap, no rules: no at, no next run", {}, { schedule: "asap" }],
    ["hourly at :05", { schedule: "hourly", scheduleAt: 5, nextRunAt: updated }, { schedule: "hourly", at: ":05", next_run_at: updated.toISOString() }],
    ["daily at 02:30", { schedule: "daily", scheduleAt: 150 }, { schedule: "daily", at: "02:30" }],
    ["rules as digit strings", { maxFeePerGas: decimal("3000000000"), maxCostBps: 150, tokenValueWei: decimal("400000000000000") }, { schedule: "asap", max_fee_per_gas: "3000000000", max_cost_bps: 150, token_value_wei: "400000000000000" }],
  ])("%s", (_, fields, expected) => {
    const body = presentSweepPolicy({ ...row, ...fields });
    expect(SweepPolicy.parse(body)).toEqual(body);
    expect(body).toEqual({ chain_id: 97, token: "USDT", token_address: row.tokenAddress, hot_wallet: row.hotWallet.address, enabled: true, min_balance: "1000000", created_at: created.toISOString(), updated_at: updated.toISOString(), ...expected });
  });
});

describe("presentHotWallet", () => {
  const row: HotWalletRow = {
    chainId: 11155111,
    address: "0x52908400098527886E0F7030069857D2E4169EE7",
    delegate: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
    status: "pending",
    error: null,
    txHash: null,
    createdAt: created,
  };

  it("omits error and tx_hash while they have no value", () => {
    const body = presentHotWallet(row);
    expect(body).toEqual({ chain_id: 11155111, address: row.address, delegate: row.delegate, status: "pending", created_at: "2026-11-21T12:00:00.123Z" });
    expect(HotWallet.parse(body)).toEqual(body);
  });

  it("shows error only with failed", () => {
    expect(presentHotWallet({ ...row, status: "failed", error: "insufficient_gas_balance" })).toMatchObject({ status: "failed", error: "insufficient_gas_balance" });
    expect(presentHotWallet({ ...row, status: "active", error: "stale", txHash: "0xabc" })).toEqual(expect.not.objectContaining({ error: expect.anything() }));
    expect(presentHotWallet({ ...row, status: "active", txHash: "0xabc" })).toMatchObject({ tx_hash: "0xabc" });
  });
});

describe("presentLedgerEntry", () => {
  const fee: LedgerEntryRow = {
    id: 9_007_199_254_740_991n,
    chainId: 97,
    kind: "fee",
    amount: decimal(`-${big}`),
    txHash: `0x${"ab".repeat(32)}`,
    sweepId: queued.id,
    note: null,
    createdAt: created,
    balanceAfter: -BigInt(big),
    paidFor: null,
  };

  it("gives every field, nullable ones as null, the amount signed and in digits, the id a number", () => {
    const body = presentLedgerEntry(fee);
    expect(body).toEqual({
      id: 9007199254740991,
      chain_id: 97,
      kind: "fee",
      amount: `-${big}`,
      tx_hash: fee.txHash,
      sweep_id: queued.id,
      note: null,
      created_at: "2026-11-21T12:00:00.123Z",
      balance_after: `-${big}`,
      paid_for: null,
    });
    expect(LedgerEntry.parse(body)).toEqual(body);
  });

  it("names what a gas entry paid for", () => {
    const paidFor = { kind: "sweep_batch" as const, batch_id: queued.id, items: 3, hot_wallet: `0x${"12".repeat(20)}` };
    const body = presentLedgerEntry({ ...fee, kind: "gas", sweepId: null, paidFor });
    expect(body.paid_for).toEqual(paidFor);
    expect(LedgerEntry.parse(body)).toEqual(body);
  });

  it("keeps a top-up's plus sign implicit and its note", () => {
    const body = presentLedgerEntry({ ...fee, id: 1n, kind: "topup", amount: decimal("5"), txHash: null, sweepId: null, note: "blocks 10-20" });
    expect(body).toMatchObject({ id: 1, kind: "topup", amount: "5", tx_hash: null, sweep_id: null, note: "blocks 10-20" });
  });
});

describe("presentChainTariff", () => {
  const chain = { chainId: 11155111, name: "Sepolia", nativeTicker: "ETH", tokens: [{ ticker: "USDT", address: `0x${"ab".repeat(20)}`, decimals: 6 }] };
  const units = { native: "ETH", tokens: [{ token: "USDT", address: `0x${"ab".repeat(20)}`, decimals: 6 }] };

  it("gives the rates in bps and percent, the coin and tokens with their decimals, and the benchmarks as gas integers", () => {
    const body = presentChainTariff(chain, {
      rateBps: 7000,
      nativeMarkupBps: 1250,
      classicGas: { ETH: { new: 21_000n, existing: 21_000n }, USDT: { new: 50_547n, existing: 33_447n } },
      extraGas: { delegation: 12_500n, account: 12_500n },
    });
    expect(body).toEqual({
      chain_id: 11155111,
      name: "Sepolia",
      rate_bps: 7000,
      rate: "70",
      native_markup_bps: 1250,
      native_markup: "12.5",
      ...units,
      classic_gas: { ETH: { new: 21000, existing: 21000 }, USDT: { new: 50547, existing: 33447 } },
      extra_gas: { delegation: 12500, account: 12500 },
    });
    expect(ChainTariff.parse(body)).toEqual(body);
  });

  it("omits classic_gas and extra_gas on a chain without benchmarks", () => {
    expect(presentChainTariff(chain, { rateBps: 0, nativeMarkupBps: 5 })).toEqual({ chain_id: 11155111, name: "Sepolia", rate_bps: 0, rate: "0", native_markup_bps: 5, native_markup: "0.05", ...units });
  });
});

describe("presentChainBalance", () => {
  const chain = { chainId: 97, name: "BSC Testnet", nativeTicker: "tBNB" };
  const line = { chain_id: 97, name: "BSC Testnet", native: "tBNB" };

  it.each<[string, { accrued: bigint; withdrawn: bigint; due: bigint }, bigint | null, object]>([
    ["a balance above the fees due", { accrued: 150n, withdrawn: 50n, due: 100n }, 1_000n, { balance: "1000", fees_accrued: "150", fees_withdrawn: "50", fees_due: "100", available: "900" }],
    ["a balance below the fees due: nothing available", { accrued: 150n, withdrawn: 0n, due: 150n }, 100n, { balance: "100", fees_accrued: "150", fees_withdrawn: "0", fees_due: "150", available: "0" }],
    ["credits beyond the fees: nothing accrued, nothing due", { accrued: -50n, withdrawn: 0n, due: 0n }, 7n, { balance: "7", fees_accrued: "0", fees_withdrawn: "0", fees_due: "0", available: "7" }],
    ["amounts past 2^256, to the wei", { accrued: 2n ** 256n, withdrawn: 1n, due: 2n ** 256n - 1n }, 2n ** 257n, { balance: (2n ** 257n).toString(), fees_accrued: (2n ** 256n).toString(), fees_withdrawn: "1", fees_due: (2n ** 256n - 1n).toString(), available: (2n ** 256n + 1n).toString() }],
    ["a node that did not answer: no balance, no available, the error", { accrued: 5n, withdrawn: 0n, due: 5n }, null, { fees_accrued: "5", fees_withdrawn: "0", fees_due: "5", error: "chain_unavailable" }],
  ])("%s", (_what, fees, balance, expected) => {
    const body = presentChainBalance(chain, fees, balance);
    expect(body).toEqual({ ...line, ...expected });
    expect(Balance.parse({ gas_wallet: "0x52908400098527886E0F7030069857D2E4169EE7", chains: [body] }).chains[0]).toEqual(body);
  });
});

describe("presentSettings", () => {
  it.each([true, false])("gives keep_one_unit %s", (keepOneUnit) => {
    expect(Settings.parse(presentSettings({ keepOneUnit, feeCeilings: [] }))).toEqual({ keep_one_unit: keepOneUnit, fee_ceilings: [] });
  });

  it("lists the fee ceilings by chain, in wei as digits (no exponent)", () => {
    const body = presentSettings({
      keepOneUnit: false,
      feeCeilings: [
        { chainId: 11155111, maxFeePerGas: decimal(big) },
        { chainId: 97, maxFeePerGas: decimal("30000000000") },
      ],
    });
    expect(body.fee_ceilings).toEqual([
      { chain_id: 97, max_fee_per_gas: "30000000000" },
      { chain_id: 11155111, max_fee_per_gas: big },
    ]);
    expect(Settings.parse(body)).toEqual(body);
  });
});

describe("presentWebhook", () => {
  const webhook = { url: "https://hooks.example.com/in", secret: "whsec_abc", previousSecretUntil: null };

  it("lists the alerts by chain, thresholds as digits (no exponent)", () => {
    const body = presentWebhook(webhook, [
      { chainId: 11155111, threshold: decimal(big), low: true },
      { chainId: 97, threshold: decimal("5"), low: false },
    ]);
    expect(body).toEqual({
      url: webhook.url,
      secret: webhook.secret,
      low_balance: [
        { chain_id: 97, threshold: "5", low: false },
        { chain_id: 11155111, threshold: big, low: true },
      ],
    });
    expect(Webhook.parse(body)).toEqual(body);
  });

  it("gives an empty low_balance without alerts", () => {
    expect(presentWebhook(webhook, [])).toEqual({ url: webhook.url, secret: webhook.secret, low_balance: [] });
  });

  it("shows until when the secret before a rotation still signs, and not once that time passed", () => {
    const until = new Date("2026-11-29T12:00:00.000Z");
    expect(presentWebhook({ ...webhook, previousSecretUntil: until }, [], new Date("2026-11-29T11:59:59Z"))).toMatchObject({ previous_secret_until: until.toISOString() });
    expect(presentWebhook({ ...webhook, previousSecretUntil: until }, [], until)).not.toHaveProperty("previous_secret_until");
  });
});

describe("presentWebhookDelivery", () => {
  const pending: WebhookDeliveryRow = {
    eventId: queued.id,
    status: "pending",
    attempts: 2,
    lastStatusCode: 500,
    lastError: "status 500",
    nextAttemptAt: updated,
    deliveredAt: null,
    event: { type: "sweep.swept", createdAt: created },
  };

  it("gives every field, nullable ones as null, created_at the event's time", () => {
    const body = presentWebhookDelivery(pending);
    expect(body).toEqual({
      id: queued.id,
      event: "sweep.swept",
      status: "pending",
      attempts: 2,
      last_status_code: 500,
      last_error: "status 500",
      created_at: "2026-11-21T12:00:00.123Z",
      delivered_at: null,
      next_attempt_at: "2026-11-21T12:00:05.000Z",
    });
    expect(WebhookDelivery.parse(body)).toEqual(body);
  });

  it("shows next_attempt_at only while pending", () => {
    const delivered = presentWebhookDelivery({ ...pending, status: "delivered", lastStatusCode: 204, lastError: null, deliveredAt: updated });
    expect(delivered).toMatchObject({ status: "delivered", last_status_code: 204, last_error: null, delivered_at: "2026-11-21T12:00:05.000Z", next_attempt_at: null });
    expect(presentWebhookDelivery({ ...pending, status: "failed", lastError: "webhook removed" })).toMatchObject({ status: "failed", next_attempt_at: null });
  });
});
