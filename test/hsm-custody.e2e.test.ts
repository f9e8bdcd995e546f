import { contractAt } from "@sweep/contracts";
import { activeHotWallet, createSoftHsmToken, fundedDeposit, partnerApi, runSweepctl, startService, startStack, untilEnded, type SoftHsmToken, type Stack } from "@sweep/testkit";
import { Transaction, Wallet, parseEther } from "ethers";

// The sweeps story with the gas wallet's key in a PKCS#11 token (SoftHSM2): `sweepctl partner create`
// generates it there while the services run, the chain-sender signs the delegate's deployment and the
// sweeps through the token, finds the key again by its label after a restart, and refuses to start
// on a wrong PIN or a missing token.

const CHAIN_ID = 97;

describe("gas wallet keys in a PKCS#11 token: a partner sweeps with the chain-sender signing in the HSM", () => {
  let softhsm: SoftHsmToken;
  let stack: Stack;
  let partner: { partner_id: string; api_key: string; gas_wallet: string };
  const hotWallet = Wallet.createRandom().address;
  let delegate: string;
  const api = partnerApi(() => stack.api, () => ({ Authorization: `Bearer ${partner.api_key}` }));

  beforeAll(async () => {
    softhsm = createSoftHsmToken();
    stack = await startStack({ blockTime: 1, env: softhsm.env });
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    softhsm?.remove();
  }, 60_000);

  /** Sweeps `count` new deposit addresses and checks that the hot wallet received each, from transactions the gas wallet signed. */
  async function sweepDeposits(count: number) {
    const chain = stack.chain(CHAIN_ID);
    const usdt = contractAt("DevToken", chain.usdt.address, chain.provider);
    const before = (await usdt.getFunction("balanceOf")(hotWallet)) as bigint;
    const deposits = await Promise.all(Array.from({ length: count }, (_, i) => fundedDeposit(chain, delegate, 1_000_000n * BigInt(i + 1))));
    const ids = await Promise.all(
      deposits.map(async (d) => {
        const res = await api("POST", "/v1/sweeps", { chain_id: CHAIN_ID, hot_wallet: hotWallet, account: d.owner.address, token: "USDT", authorization: d.authorization });
        expect(res.status).toBe(202);
        return res.body.id as string;
      }),
    );
    const ended = await Promise.all(ids.map((id) => untilEnded<{ status: string; tx_hash: string; swept_amount: string }>(api, "/v1/sweeps", id, 40_000)));
    expect(ended.map((s) => s.status)).toEqual(ids.map(() => "swept"));
    for (const hash of new Set(ended.map((s) => s.tx_hash))) expect((await chain.provider.getTransaction(hash))?.from).toBe(partner.gas_wallet);
    const swept = ended.reduce((sum, s) => sum + BigInt(s.swept_amount), 0n);
    expect((await usdt.getFunction("balanceOf")(hotWallet)) as bigint).toBe(before + swept);
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

  it("a restarted chain-sender finds its key by label and sweeps again", async () => {
    await stack.restart("chain-sender");
    await sweepDeposits(2);
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
