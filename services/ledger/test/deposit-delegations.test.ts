import { createDb, type Db } from "@sweep/db";
import { recordRevokedDelegations, recordSweptDelegations } from "../src/deposit-delegations";
import { createHotWallet, createPartner, randomAddress, type Partner } from "./fixtures";

// What a settled batch writes into the deposit-address inventory, against Postgres: a swept sweep's
// address delegated to its hot wallet's delegate, a revoked revocation's address revoked; never over
// the firewall's compromised mark, nor over an authorization registered after the revocation.

describe("the inventory's delegation as settlements show it", () => {
  let db: Db;
  let partner: Partner;
  let hotWallet: { id: string; delegate: string };
  beforeAll(async () => {
    db = createDb(process.env.DATABASE_URL!);
    partner = await createPartner(db);
    hotWallet = await createHotWallet(db, partner, { status: "active" });
  });
  afterAll(() => db.$disconnect());

  const held = (nonce: number) => ({ chain_id: 97, address: hotWallet.delegate, nonce, y_parity: 0, r: `0x${"1".repeat(64)}`, s: `0x${"2".repeat(64)}` });
  async function address(delegation: "unknown" | "authorized" | "delegated" | "compromised", nonce = 0) {
    const account = randomAddress();
    await db.depositAddress.create({ data: { partnerId: partner.partnerId, chainId: 97, address: account, delegation, delegate: delegation === "unknown" ? null : hotWallet.delegate, authorization: held(nonce) } });
    return account;
  }
  const sweepOf = async (account: string) =>
    (await db.sweep.create({ data: { partnerId: partner.partnerId, chainId: 97, hotWalletId: hotWallet.id, account, token: "USDT", status: "swept" }, select: { id: true } })).id;
  const revocationOf = async (account: string, nonce: number) =>
    (await db.revocation.create({ data: { partnerId: partner.partnerId, chainId: 97, account, authorization: { ...held(nonce), address: "0x0000000000000000000000000000000000000000" }, status: "revoked" }, select: { id: true } })).id;
  const delegationOf = async (account: string) => (await db.depositAddress.findFirstOrThrow({ where: { partnerId: partner.partnerId, address: account } })).delegation;

  it("marks a swept sweep's address delegated, unless the firewall marked it compromised", async () => {
    const [authorized, unknown, compromised] = [await address("authorized"), await address("unknown"), await address("compromised")];
    const ids = [await sweepOf(authorized), await sweepOf(unknown), await sweepOf(compromised)];
    await db.$transaction((tx) => recordSweptDelegations(tx, ids));
    expect([await delegationOf(authorized), await delegationOf(unknown), await delegationOf(compromised)]).toEqual(["delegated", "delegated", "compromised"]);
  });

  it("marks a revoked revocation's address revoked, unless compromised or holding an authorization registered after it", async () => {
    const delegated = await address("delegated");
    const compromised = await address("compromised");
    const newer = await address("authorized", 2);
    const ids = [await revocationOf(delegated, 1), await revocationOf(compromised, 1), await revocationOf(newer, 1)];
    await db.$transaction((tx) => recordRevokedDelegations(tx, ids));
    expect([await delegationOf(delegated), await delegationOf(compromised), await delegationOf(newer)]).toEqual(["revoked", "compromised", "authorized"]);
  });
});
