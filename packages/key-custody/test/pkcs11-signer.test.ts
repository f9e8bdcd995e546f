import { JsonRpcProvider, Transaction, Wallet, verifyMessage, type TransactionRequest } from "ethers";
import { createSoftHsmToken, type SoftHsmToken } from "@sweep/testkit";
import { Pkcs11Token, TokenKeySigner, tokenKeySigner } from "../src";

describe("gas wallet keys in a PKCS#11 token (SoftHSM2)", () => {
  let softhsm: SoftHsmToken;
  let token: Pkcs11Token;

  beforeAll(() => {
    softhsm = createSoftHsmToken();
    token = softhsm.open();
  });
  afterAll(() => {
    token.close();
    softhsm.remove();
  });

  const request = (from: string): TransactionRequest => {
    const delegate = Wallet.createRandom();
    return {
      type: 4,
      chainId: 11155111n,
      nonce: 7,
      to: from,
      data: "0x1234",
      value: 0n,
      gasLimit: 100_000n,
      maxFeePerGas: 2_000_000_000n,
      maxPriorityFeePerGas: 1_000_000_000n,
      authorizationList: [delegate.authorizeSync({ address: Wallet.createRandom().address, nonce: 0n, chainId: 11155111n })],
    };
  };

  it("generates a secp256k1 key that never leaves the token and signs type-4 transactions its address sent", async () => {
    const key = token.generateKey("gas-wallet:signs");
    expect(token.protection(key)).toEqual({ extractable: false, sensitive: true });
    const signer = new TokenKeySigner(token, key);
    // Many signatures: the token's s falls in either half, and both recovery ids come up.
    for (let i = 0; i < 12; i++) {
      const raw = await signer.signTransaction({ ...request(key.address), nonce: i });
      const tx = Transaction.from(raw);
      expect(tx.from).toBe(key.address);
      expect(BigInt(tx.signature!.s) <= 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n).toBe(true);
      expect(tx.authorizationList).toHaveLength(1);
    }
    expect(verifyMessage("hello", await signer.signMessage("hello"))).toBe(key.address);
  });

  it("finds a key by its label in a new session, and refuses one whose address is not the gas wallet's", async () => {
    const key = token.generateKey("gas-wallet:found");
    const other = softhsm.open();
    try {
      const signer = tokenKeySigner(other, "gas-wallet:found", key.address);
      expect(Transaction.from(await signer.connect(new JsonRpcProvider("http://127.0.0.1:1", 11155111, { staticNetwork: true })).signTransaction(request(key.address))).from).toBe(key.address);
      expect(() => tokenKeySigner(other, "gas-wallet:found", Wallet.createRandom().address)).toThrow(/not gas wallet/);
      expect(() => tokenKeySigner(other, "gas-wallet:missing", key.address)).toThrow(/no key pair labelled gas-wallet:missing/);
    } finally {
      other.close();
    }
    expect(() => token.generateKey("gas-wallet:found")).toThrow(/already holds/);
  });
});

// Before any session of this process logs in: a second login of one process is no check of its PIN.
describe("opening a PKCS#11 token", () => {
  let softhsm: SoftHsmToken;
  beforeAll(() => (softhsm = createSoftHsmToken()));
  afterAll(() => softhsm.remove());

  it.each([
    ["a wrong PIN", (t: SoftHsmToken) => ({ ...t.config, pin: "0000" }), /PKCS11_PIN was refused by token "sweep-[0-9a-f]+" \(CKR_PIN_INCORRECT\)/],
    ["a missing token", (t: SoftHsmToken) => ({ ...t.config, tokenLabel: "no-such-token" }), /PKCS11_TOKEN_LABEL: no token labelled "no-such-token"/],
    ["a missing module", (t: SoftHsmToken) => ({ ...t.config, library: "/nonexistent/libpkcs11.so" }), /PKCS11_LIBRARY \/nonexistent\/libpkcs11.so could not be loaded/],
  ])("refuses %s with a message naming it, never the PIN", (_name, config, message) => {
    const attempt = () => Pkcs11Token.open(config(softhsm));
    expect(attempt).toThrow(message);
    try {
      attempt();
    } catch (err) {
      expect((err as Error).message).not.toContain(softhsm.config.pin);
    }
  });
});
