import { contractAt } from "@sweep/contracts";
import { activeHotWallet, createSoftHsmToken, createTestPartner, fundedDeposit, partnerApi, runSweepctl, startService, startStack, untilEnded, type PartnerApi, type SoftHsmToken, type Stack } from "@sweep/testkit";
import { Transaction, Wallet, parseEther } from "ethers";

// The sweeps story with the gas wallet's key in a PKCS#11 token (SoftHSM2): `sweepctl partner create`
// generates it there while the services run, the chain-sender signs the delegate's deployment and the
// sweeps through the token, finds the key again by its label after a restart, and refuses to start
// on a wrong PIN or a missing token. A second partner's key, sealed when it first swept, is moved
// into the token by `sweepctl gas-wallet import`; the restarted chain-sender signs its next sweep
// there, from the same address.

const CHAIN_ID = 97;

/** A partner's side of a sweep: its API, the gas wallet that must have signed, the hot wallet and its delegate. */
interface Sweeper {
  api: PartnerApi;
  gasWallet: string;
  hotWallet: string;
  delegate: string;
}

describe("gas wallet keys in a PKCS#11 token: a partner sweeps with the chain-sender signing in the HSM", () => {
  let softhsm: SoftHsmToken;
  let stack: Stack;
  let partner: { partner_id: string; api_key: string; gas_wallet: string };
  const hotWallet = Wallet.createRandom().address;
  let delegate: string;
  const api = partnerApi(() => stack.api, () => ({ Authorization: `Bearer ${partner.api_key}` }));
  // The partner whose key starts sealed (under the development KEK the stack's services fall back to).
  let sealed: Sweeper & { partnerId: string };

  beforeAll(async () => {
    softhsm = createSoftHsmToken();
    stack = await startStack({ blockTime: 1, env: softhsm.env });
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    softhsm?.remove();
  }, 60_000);

  /** Sweeps `count` new deposit addresses and checks that the hot wallet received each, from transactions the gas wallet signed. */
  async function sweepDeposits(count: number, who: Sweeper = { api, gasWallet: partner.gas_wallet, hotWallet, delegate }) {
    const chain = stack.chain(CHAIN_ID);
    const usdt = contractAt("DevToken", chain.usdt.address, chain.provider);
    const before = (await usdt.getFunction("balanceOf")(who.hotWallet)) as bigint;
    const deposits = await Promise.all(Array.from({ length: count }, (_, i) => fundedDeposit(chain, who.delegate, 1_000_000n * BigInt(i + 1))));
    const ids = await Promise.all(
      deposits.map(async (d) => {
        const res = await who.api("POST", "/v1/sweeps", { chain_id: CHAIN_ID, hot_wallet: who.hotWallet, account: d.owner.address, token: "USDT", authorization: d.authorization });
        expect(res.status).toBe(202);
        return res.body.id as string;
      }),
    );
    const ended = await Promise.all(ids.map((id) => untilEnded<{ status: string; tx_hash: string; swept_amount: string }>(who.api, "/v1/sweeps", id, 40_000)));
    expect(ended.map((s) => s.status)).toEqual(ids.map(() => "swept"));
    for (const hash of new Set(ended.map((s) => s.tx_hash))) expect((await chain.provider.getTransaction(hash))?.from).toBe(who.gasWallet);
    const swept = ended.reduce((sum, s) => sum + BigInt(s.swept_amount), 0n);
    expect((await usdt.getFunction("balanceOf")(who.hotWallet)) as bigint).toBe(before + swept);
  }

  it("partner create generates the gas wallet's key in the token while the services run", async () => {
    const created = await runSweepctl(["partner", "create", "--name", "hsm custody", "--json"], stack.env);
    expect(created).toMatchObject({ code: 0, stderr: "" });
    partner = JSON.parse(created.stdout);
    expect(await stack.db.gasWallet.findUniqueOrThrow({ where: { partnerId: partner.partner_id } })).toMatchObject({ address: partner.gas_wallet, keyCustody: "pkcs11", encryptedKey: null });
    await stack.chain(CHAIN_ID).setBalance(partner.gas_wallet, parseEther("10"));
  });

  it("registers a hot wallet: the delegate's deployment is signed by the token's key", async () => {
    ({ delegate } = await activeHotWallet(api, CHAIN_ID, hotWallet, 30_000));
    const deployment = await stack.db.chainTransaction.findFirstOrThrow({ where: { chainId: CHAIN_ID, batch: { purpose: "deploy_delegate" } } });
    expect(Transaction.from(deployment.rawTx).from).toBe(partner.gas_wallet);
  });

  it("sweeps deposits with type-4 transactions signed in the token", async () => {
    await sweepDeposits(3);
  });

  it("a partner whose gas wallet key is sealed sweeps through the same chain-sender", async () => {
    const created = await createTestPartner(stack.db, "sealed, then imported");
    await stack.chain(CHAIN_ID).setBalance(created.gasWallet, parseEther("10"));
    const sealedApi = partnerApi(() => stack.api, () => created.auth);
    const sealedHotWallet = Wallet.createRandom().address;
    const { delegate: sealedDelegate } = await activeHotWallet(sealedApi, CHAIN_ID, sealedHotWallet, 30_000);
    sealed = { partnerId: created.partnerId, gasWallet: created.gasWallet, api: sealedApi, hotWallet: sealedHotWallet, delegate: sealedDelegate };
    await sweepDeposits(1, sealed);
  });

  it("sweepctl gas-wallet import moves that key into the token while the services run", async () => {
    const imported = await runSweepctl(["gas-wallet", "import", "--partner", sealed.partnerId, "--json"], stack.env);
    expect(imported.code).toBe(0);
    const row = await stack.db.gasWallet.findUniqueOrThrow({ where: { partnerId: sealed.partnerId } });
    expect(JSON.parse(imported.stdout)).toEqual({ partner_id: sealed.partnerId, gas_wallet: sealed.gasWallet, key_custody: "pkcs11", key_label: `sweep-gas-wallet:${row.id}`, token: softhsm.config.tokenLabel });
    expect(row).toMatchObject({ address: sealed.gasWallet, keyCustody: "pkcs11", keyLabel: `sweep-gas-wallet:${row.id}`, encryptedKey: null, kekId: null });
    expect(imported.stderr).toMatch(/Restart every chain-sender/);
  });

  it("a restarted chain-sender finds the keys by label and sweeps again: the imported one from the token, from the same address", async () => {
    await stack.restart("chain-sender");
    // The imported wallet's row holds no sealed key any more: the token's is the only one this chain-sender can sign with.
    await Promise.all([sweepDeposits(2), sweepDeposits(1, sealed)]);
  });

  it.each([
    ["a wrong PIN", { PKCS11_PIN: "000000" }, /PKCS11_PIN was refused by token "sweep-[0-9a-f]+" \(CKR_PIN_INCORRECT\)/],
    ["a missing token", { PKCS11_TOKEN_LABEL: "no-such-token" }, /PKCS11_TOKEN_LABEL: no token labelled "no-such-token"/],
  ])("a chain-sender with %s stops at start, saying why and never showing the PIN", async (_name, env, message) => {
    const output = await startService("chain-sender", { ...stack.env, ...env }).then(
      () => "the chain-sender started",
      (err: Error) => err.message,
    );
    expect(output).toMatch(/^chain-sender exited with 1:/);
    const failure = output.split("\n").flatMap((line) => (line.includes('"could not start"') ? [JSON.parse(line) as { err: string }] : []));
    expect(failure).toEqual([expect.objectContaining({ err: expect.stringMatching(message) })]);
    expect(output).not.toContain(softhsm.config.pin);
  });
});
