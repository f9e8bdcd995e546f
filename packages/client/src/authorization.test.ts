import { hashAuthorization, SigningKey, verifyAuthorization, Wallet, ZeroAddress } from "ethers";
import { privateKeyToAccount } from "viem/accounts";
import { authorizationDigest, authorizationOf, signAuthorization, type AuthorizationSigner } from "./authorization";

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const delegate = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const key = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";

describe("authorizationDigest", () => {
  it.each([
    ["Sepolia, nonce 0", 11155111n, delegate, 0n],
    ["BSC testnet, nonce 1", 97n, delegate, 1n],
    ["a one-byte chain id under 0x80", 1n, delegate, 127n],
    ["a nonce of 0x80 (two bytes in RLP)", 56n, delegate, 128n],
    ["a revocation (zero address)", 11155111n, ZeroAddress, 7n],
    ["large values", 2n ** 63n - 1n, delegate.toLowerCase(), 2n ** 40n],
  ])("is what ethers signs: %s", (_case, chainId, address, nonce) => {
    expect(authorizationDigest({ chainId, address, nonce })).toBe(hashAuthorization({ chainId, address, nonce }));
  });

  it("refuses what is not an address", () => {
    expect(() => authorizationDigest({ chainId: 1, address: "0x1234", nonce: 0 })).toThrow("not an address");
  });
});

describe("signAuthorization", () => {
  const wallet = new Wallet(key);
  const terms = { chainId: 11155111n, address: delegate, nonce: 3n };

  const word = (hex: string) => `0x${BigInt(hex).toString(16).padStart(64, "0")}`;
  /** Who signed the Authorization, as the chain and the API recover it. */
  const signerOf = (a: Awaited<ReturnType<typeof signAuthorization>>) =>
    verifyAuthorization({ chainId: BigInt(a.chain_id), address: a.address, nonce: BigInt(a.nonce) }, { r: word(a.r), s: word(a.s), yParity: a.y_parity as 0 | 1 });

  const digestSigner = (flipToHighS: boolean): AuthorizationSigner => ({
    signDigest: async (digest) => {
      const signature = new SigningKey(key).sign(digest);
      const s = BigInt(signature.s);
      return flipToHighS ? { r: signature.r, s: N - s, yParity: signature.yParity ^ 1 } : { r: signature.r, s: signature.s, yParity: signature.yParity };
    },
  });

  it.each<[string, AuthorizationSigner]>([
    ["an ethers Wallet", wallet],
    ["a viem local account", privateKeyToAccount(key)],
    ["a raw digest signer (HSM, KMS, MPC)", digestSigner(false)],
    ["a raw digest signer that returns a high s", digestSigner(true)],
  ])("gives the spec's Authorization signed by the deposit key, with a low s: %s", async (_kind, signer) => {
    const authorization = await signAuthorization(signer, terms);
    expect(authorization).toMatchObject({ chain_id: 11155111, address: delegate, nonce: 3 });
    expect(authorization.r).toMatch(/^0x[0-9a-f]{1,64}$/);
    expect(BigInt(authorization.s) <= N / 2n).toBe(true);
    expect([0, 1]).toContain(authorization.y_parity);
    expect(signerOf(authorization)).toBe(wallet.address);
  });
});

describe("signAuthorization given no signer", () => {
  it.each<[string, unknown, RegExp]>([
    ["a private key string", key, /^signAuthorization takes a signer, not a string \(a private key\?\): an ethers Wallet \(new Wallet\(privateKey\)\), a viem account/],
    ["null", null, /not null/],
    ["an object that signs nothing", { sign: () => "0x" }, /not an object without authorize, signAuthorization or signDigest/],
  ])("says what it takes when given %s", async (_case, signer, message) => {
    await expect(signAuthorization(signer as AuthorizationSigner, { chainId: 1, address: delegate, nonce: 0 })).rejects.toThrow(message);
  });
});

describe("authorizationOf", () => {
  const terms = { chainId: 1, address: delegate, nonce: 0 };

  it.each([
    ["a parity of 2", { r: 1n, s: 1n, yParity: 2 }, "yParity must be 0 or 1"],
    ["r of zero", { r: 0n, s: 1n, yParity: 0 }, "within the curve order"],
    ["s at the curve order", { r: 1n, s: N, yParity: 0 }, "within the curve order"],
  ])("refuses %s", (_case, signature, message) => {
    expect(() => authorizationOf(terms, signature)).toThrow(message);
  });

  it("refuses a nonce too large for the API's integer", () => {
    expect(() => authorizationOf({ ...terms, nonce: 2n ** 53n }, { r: 1n, s: 1n, yParity: 0 })).toThrow("nonce must be");
  });
});
