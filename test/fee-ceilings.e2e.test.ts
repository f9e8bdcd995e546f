import { authorizationBody, createTestPartner, eventually, partnerApi, startStack, type Stack, type TestPartner } from "@sweep/testkit";
import { Wallet, ZeroAddress, parseEther, toQuantity } from "ethers";

// Fees never run away: chain 97 runs with a fee ceiling of 10 gwei (tip 2 gwei) and the partner sets
// its own, lower, 8 gwei. A base fee spike above the ceiling holds the work queued (GET says
// waiting_for_gas_price, nothing is sent, no attempt is spent); when the base fee falls it goes on by
// itself, and the transaction offers at most the ceiling, so the gas booked is at most the ceiling's
// worth. A sweep policy's own max gas price holds its sweeps the same way under the account's ceiling.
// The chain mines a block per transaction, so a base fee set stays until the next one.

const CHAIN_ID = 97;
const gwei = 1_000_000_000n;
const CHAIN_MAX_FEE = 10n * gwei;
const PARTNER_MAX_FEE = 8n * gwei;

interface WorkBody {
  id: string;
  status: string;
  reason?: string;
  attempts: number;
  tx_hash?: string;
  gas?: number;
  gas_cost?: string;
}

describe("fee ceilings on anvil: a base fee spike holds the work, its fall sends it under the ceiling", () => {
  let stack: Stack;
  let partner: TestPartner;
  let gasWalletId: string;
  const hotWallet = Wallet.createRandom().address;
  let delegate: string;
  const api = partnerApi(() => stack.api, () => partner.auth);
  const chain = () => stack.chain(CHAIN_ID);
  const work = async (path: string, id: string) => (await api("GET", `${path}/${id}`)).body as WorkBody;

  /** The next block's base fee, mined now: with a block per transaction it stays the latest until the next transaction. */
  async function setBaseFee(wei: bigint) {
    await chain().provider.send("anvil_setNextBlockBaseFeePerGas", [toQuantity(wei)]);
    await chain().provider.send("evm_mine", []);
  }

  /** Queued with the reason, no attempt spent, and still so a few batcher polls later, with no transaction of the gas wallet signed meanwhile. */
  async function expectHeld(path: string, id: string) {
    const transactions = await stack.db.chainTransaction.count({ where: { gasWalletId } });
    const held = await eventually("the work held for the gas price", async () => {
      const body = await work(path, id);
      return body.reason === "waiting_for_gas_price" ? body : undefined;
    });
    expect(held).toMatchObject({ status: "queued", attempts: 0 });
    expect(held.tx_hash).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(await work(path, id)).toMatchObject({ status: "queued", reason: "waiting_for_gas_price", attempts: 0 });
    expect(await stack.db.chainTransaction.count({ where: { gasWalletId } })).toBe(transactions);
  }

  /** The transaction that carried the work: its max fee is the partner's ceiling (the market asked more), and it paid at most that. */
  async function expectUnderCeiling(done: WorkBody) {
    const [transaction, receipt] = await Promise.all([chain().provider.getTransaction(done.tx_hash!), chain().provider.getTransactionReceipt(done.tx_hash!)]);
    expect(transaction!.maxFeePerGas).toBe(PARTNER_MAX_FEE);
    expect(receipt!.gasPrice).toBeLessThanOrEqual(PARTNER_MAX_FEE);
    // The gas booked for the work is the transaction's, at the price it paid: never above the ceiling's worth.
    expect(BigInt(done.gas_cost!)).toBe(BigInt(done.gas!) * receipt!.gasPrice);
    expect(BigInt(done.gas_cost!)).toBeLessThanOrEqual(BigInt(done.gas!) * PARTNER_MAX_FEE);
  }

  beforeAll(async () => {
    stack = await startStack({ env: { [`MAX_FEE_PER_GAS_${CHAIN_ID}`]: CHAIN_MAX_FEE.toString(), [`MAX_PRIORITY_FEE_PER_GAS_${CHAIN_ID}`]: (2n * gwei).toString() } });
    partner = await createTestPartner(stack.db, "fee ceilings");
    gasWalletId = (await stack.db.gasWallet.findUniqueOrThrow({ where: { partnerId: partner.partnerId } })).id;
    await chain().setBalance(partner.gasWallet, parseEther("100"));
    const registered = await api("POST", "/v1/hot-wallets", { chain_id: CHAIN_ID, address: hotWallet });
    delegate = registered.body.delegate;
    await eventually("the hot wallet active", async () => ((await api("GET", "/v1/hot-wallets")).body.hot_wallets.some((h: { status: string }) => h.status === "active") ? true : undefined));
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
  }, 60_000);

  const owner = Wallet.createRandom();

  it("takes the partner's lower ceiling for the chain in its settings", async () => {
    const patched = await api("PATCH", "/v1/settings", { fee_ceilings: [{ chain_id: CHAIN_ID, max_fee_per_gas: PARTNER_MAX_FEE.toString() }] });
    expect(patched).toMatchObject({ status: 200, body: { fee_ceilings: [{ chain_id: CHAIN_ID, max_fee_per_gas: PARTNER_MAX_FEE.toString() }] } });
  });

  it("holds a sweep queued while the base fee is above the ceiling, and sweeps it at most at the ceiling once the fee falls", async () => {
    await chain().mintUsdt(owner.address, 1_000_000n);
    await setBaseFee(50n * gwei);
    const authorization = authorizationBody(owner.authorizeSync({ address: delegate, nonce: 0n, chainId: BigInt(CHAIN_ID) }));
    const requested = await api("POST", "/v1/sweeps", { chain_id: CHAIN_ID, hot_wallet: hotWallet, account: owner.address, token: "USDT", authorization });
    expect(requested.status).toBe(202);
    await expectHeld("/v1/sweeps", requested.body.id);
    expect(await stack.db.batch.count({ where: { gasWalletId, purpose: "sweep" } })).toBe(0);

    // 5 gwei leaves room under 8 for the base fee and the whole tip ceiling; the market would offer 2 × 5 + the tip, over 8.
    await setBaseFee(5n * gwei);
    const swept = await eventually("the sweep to end", async () => {
      const body = await work("/v1/sweeps", requested.body.id);
      return ["swept", "failed", "rejected"].includes(body.status) ? body : undefined;
    });
    expect(swept).toMatchObject({ status: "swept", attempts: 1 });
    expect(swept.reason).toBeUndefined();
    await expectUnderCeiling(swept);
  }, 120_000);

  it("holds a revocation the same way, and revokes once the fee falls", async () => {
    await setBaseFee(50n * gwei);
    const authorization = authorizationBody(owner.authorizeSync({ address: ZeroAddress, nonce: 1n, chainId: BigInt(CHAIN_ID) }));
    const requested = await api("POST", "/v1/revocations", { chain_id: CHAIN_ID, account: owner.address, authorization });
    expect(requested.status).toBe(202);
    await expectHeld("/v1/revocations", requested.body.id);

    await setBaseFee(5n * gwei);
    const revoked = await eventually("the revocation to end", async () => {
      const body = await work("/v1/revocations", requested.body.id);
      return ["revoked", "failed", "rejected"].includes(body.status) ? body : undefined;
    });
    expect(revoked).toMatchObject({ status: "revoked", attempts: 1 });
    await expectUnderCeiling(revoked);
    expect(await chain().provider.getCode(owner.address)).toBe("0x");
  }, 120_000);

  it("holds a sweep policy's sweep while the gas price is above the policy's own maximum, under the account's ceiling, and sweeps it once the fee falls", async () => {
    const POLICY_MAX_FEE = 3n * gwei;
    const depositor = Wallet.createRandom();
    const authorization = authorizationBody(depositor.authorizeSync({ address: delegate, nonce: 0n, chainId: BigInt(CHAIN_ID) }));
    expect((await api("POST", "/v1/deposit-addresses", { chain_id: CHAIN_ID, hot_wallet: hotWallet, addresses: [{ address: depositor.address, authorization }] })).status).toBe(200);
    await chain().mintUsdt(depositor.address, 2_000_000n);
    // 5 gwei: the account's ceiling (8) lets the batch go; the policy's 3 does not.
    await setBaseFee(5n * gwei);
    const set = await api("PUT", "/v1/sweep-policies", { chain_id: CHAIN_ID, token: "USDT", hot_wallet: hotWallet, max_fee_per_gas: POLICY_MAX_FEE.toString() });
    expect(set).toMatchObject({ status: 200, body: { enabled: true, max_fee_per_gas: POLICY_MAX_FEE.toString() } });

    const made = await eventually("the policy's sweep", async () => (await api("GET", `/v1/sweeps?account=${depositor.address}`)).body.items[0] as (WorkBody & { created_by?: string; external_id?: string }) | undefined);
    expect(made).toMatchObject({ created_by: "policy", external_id: expect.stringMatching(/^deposit:97:0x[0-9a-f]{64}:\d+$/) });
    await expectHeld("/v1/sweeps", made.id);

    // 1 gwei and the tip (at most 2) is under the policy's 3.
    await setBaseFee(gwei);
    const swept = await eventually("the policy's sweep to end", async () => {
      const body = await work("/v1/sweeps", made.id);
      return ["swept", "failed", "rejected"].includes(body.status) ? body : undefined;
    });
    expect(swept).toMatchObject({ status: "swept", attempts: 1 });
    expect(swept.reason).toBeUndefined();
    const receipt = await chain().provider.getTransactionReceipt(swept.tx_hash!);
    expect(receipt!.gasPrice).toBeLessThanOrEqual(POLICY_MAX_FEE);
  }, 120_000);
});
