import { JsonRpcProvider, Transaction, Wallet, getBytes } from "ethers";
import { createSoftHsmToken, type SoftHsmToken } from "@sweep/testkit";
import { Pkcs11Token, tokenKeySigner } from "../src";

describe("importing an existing secp256k1 key into a PKCS#11 token (SoftHSM2)", () => {
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

  it("writes the key into the token, unextractable from now on, and the token reports it was once outside", () => {
    const wallet = Wallet.createRandom();
    const key = token.importKeyPair("gas-wallet:imported", getBytes(wallet.privateKey));
    expect(key.address).toBe(wallet.address);
    expect(token.protection(key)).toEqual({ extractable: false, sensitive: true });
    expect(token.origin(key)).toEqual({ local: false, alwaysSensitive: false, neverExtractable: false });
    // What a custodian's policy looks for, and only a key generated in the token has.
    expect(token.origin(token.generateKey("gas-wallet:generated"))).toEqual({ local: true, alwaysSensitive: true, neverExtractable: true });
  });

  it("signs, from another session, transactions whose recovered sender is the wallet's address", async () => {
    const wallet = Wallet.createRandom();
    token.importKeyPair("gas-wallet:signs", getBytes(wallet.privateKey));
    const other = softhsm.open();
    try {
      const signer = tokenKeySigner(other, "gas-wallet:signs", wallet.address).connect(new JsonRpcProvider("http://127.0.0.1:1", 97, { staticNetwork: true }));
      for (let nonce = 0; nonce < 6; nonce++) {
        const raw = await signer.signTransaction({ type: 2, chainId: 97n, nonce, to: wallet.address, value: 0n, gasLimit: 21_000n, maxFeePerGas: 2n, maxPriorityFeePerGas: 1n });
        expect(Transaction.from(raw).from).toBe(wallet.address);
      }
    } finally {
      other.close();
    }
  });

  it.each([
    ["a generated key pair", (label: string) => token.generateKey(label)],
    ["an imported key pair", (label: string) => token.importKeyPair(label, getBytes(Wallet.createRandom().privateKey))],
  ])("refuses a label %s holds, and leaves that pair as it was", (_name, holder) => {
    const held = holder(`gas-wallet:held-${_name}`);
    expect(() => token.importKeyPair(held.label, getBytes(Wallet.createRandom().privateKey))).toThrow(`already holds an object labelled ${held.label}`);
    expect(token.findKey(held.label).address).toBe(held.address);
  });

  it("refuses a private key that is not 32 bytes, writing nothing", () => {
    expect(() => token.importKeyPair("gas-wallet:short", new Uint8Array(31).fill(1))).toThrow(/a secp256k1 private key is 32 bytes, not 31/);
    expect(() => token.findKey("gas-wallet:short")).toThrow(/holds no key pair labelled gas-wallet:short/);
  });
});
