import { createRequire } from "node:module";
import { Signature, Wallet, verifyAuthorization, zeroPadValue } from "ethers";
import { recoverAuthorizationSigner } from "./authorization-signer";

describe("recoverAuthorizationSigner", () => {
  it("uses the native libsecp256k1 binding on this platform, not the JavaScript fallback", () => {
    const load = createRequire(__filename);
    expect(() => load("secp256k1/bindings")).not.toThrow();
  });

  it.each(Array.from({ length: 20 }, (_, i) => [i]))("recovers the signer ethers recovers (authorization %i)", (i) => {
    const wallet = Wallet.createRandom();
    const request = { address: Wallet.createRandom().address, nonce: BigInt(i * 7919), chainId: i % 2 === 0 ? 97n : 11155111n };
    const { signature } = wallet.authorizeSync(request);
    const recovered = recoverAuthorizationSigner(request, { r: signature.r, s: signature.s, yParity: signature.yParity });
    expect(recovered).toBe(wallet.address);
    expect(recovered).toBe(verifyAuthorization(request, signature));
  });

  it("recovers another address when any signed field differs", () => {
    const wallet = Wallet.createRandom();
    const request = { address: Wallet.createRandom().address, nonce: 3n, chainId: 97n };
    const { signature } = wallet.authorizeSync(request);
    const sig = { r: signature.r, s: signature.s, yParity: signature.yParity };
    for (const changed of [{ ...request, nonce: 4n }, { ...request, chainId: 98n }, { ...request, address: Wallet.createRandom().address }]) {
      expect(recoverAuthorizationSigner(changed, sig)).not.toBe(wallet.address);
    }
    expect(recoverAuthorizationSigner(request, { ...sig, yParity: sig.yParity === 0 ? 1 : 0 })).not.toBe(wallet.address);
  });

  it("throws when r is not the x-coordinate of a curve point", () => {
    // x = 5 is not on secp256k1 (5^3 + 7 = 132 is not a square mod p)
    const r = zeroPadValue("0x05", 32);
    const s = Signature.from({ r: zeroPadValue("0x01", 32), s: zeroPadValue("0x01", 32), yParity: 0 }).s;
    expect(() => recoverAuthorizationSigner({ address: Wallet.createRandom().address, nonce: 0n, chainId: 97n }, { r, s, yParity: 0 })).toThrow();
  });
});
