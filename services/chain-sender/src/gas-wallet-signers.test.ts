import { createSealedGasWalletKey, developmentKek, gasWalletKeyLabel, type Pkcs11Token } from "@sweep/key-custody";
import { createSoftHsmToken, type SoftHsmToken } from "@sweep/testkit";
import { GasWalletSigners, type GasWalletRow } from "./gas-wallet-signers";

describe("gas wallet signers: each wallet signed for as its row records its key", () => {
  let softhsm: SoftHsmToken;
  let token: Pkcs11Token;
  let inToken: GasWalletRow;
  const sealed = createSealedGasWalletKey(developmentKek);
  const sealedRow: GasWalletRow = { id: "sealed", keyCustody: "sealed", keyLabel: null, ...sealed };

  beforeAll(() => {
    softhsm = createSoftHsmToken();
    token = softhsm.open();
    const key = token.generateKey(gasWalletKeyLabel("in-token"));
    inToken = { id: "in-token", address: key.address, keyCustody: "pkcs11", keyLabel: key.label, encryptedKey: null, kekId: null };
  });
  afterAll(() => {
    token.close();
    softhsm.remove();
  });

  it("signs a token's wallet with its key and a sealed wallet beside it with the decrypted key", () => {
    const signers = new GasWalletSigners([developmentKek], token);
    expect(signers.signerFor(inToken).address).toBe(inToken.address);
    expect(signers.signerFor(sealedRow).address).toBe(sealed.address);
  });

  it.each([
    ["a token's wallet without a token", () => new GasWalletSigners([developmentKek]).signerFor(inToken), /is in a PKCS#11 token: this chain-sender runs with GAS_WALLET_KEYS=sealed/],
    ["a token's wallet whose key is not in it", () => new GasWalletSigners([], token).signerFor({ ...inToken, id: "gone", keyLabel: gasWalletKeyLabel("gone") }), /no key pair labelled/],
    ["a sealed wallet without its ciphertext", () => new GasWalletSigners([developmentKek], token).signerFor({ ...sealedRow, encryptedKey: null }), /without its key's record/],
  ])("refuses %s, saying why", (_name, attempt, message) => expect(attempt).toThrow(message));
});
