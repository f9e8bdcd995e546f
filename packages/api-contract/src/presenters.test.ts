import { presentHotWallet, presentSweep, type HotWalletRow, type SweepRow } from "./presenters";
import { HotWallet, Sweep } from "./responses";

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
