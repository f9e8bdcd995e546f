import type { Authorization } from "@sweep/api-contract";
import { ApiError } from "./http/api-error";
import { N as SECP256K1_N, Wallet, ZeroAddress } from "ethers";
import { verifiedAuthorization, verifyAuthorization } from "./authorization";

const CHAIN = 11155111;
const hex = (n: bigint) => `0x${n.toString(16)}`;

const deposit = new Wallet("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
const stranger = new Wallet("0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a");
const delegate = "0x5FbDB2315678afecb367f032d93F642f64180aa3";

/** A real EIP-7702 authorization in the API's JSON shape. */
async function signed(signer: Wallet, fields: { address?: string; nonce?: number; chainId?: number } = {}): Promise<Authorization> {
  const auth = await signer.authorize({ address: fields.address ?? delegate, nonce: fields.nonce ?? 7, chainId: fields.chainId ?? CHAIN });
  return { chain_id: Number(auth.chainId), address: auth.address, nonce: Number(auth.nonce), y_parity: auth.signature.yParity, r: auth.signature.r, s: auth.signature.s };
}

const expected = { chainId: CHAIN, delegate, delegateName: `this hot wallet's delegate ${delegate}`, signer: deposit.address };

describe("verifyAuthorization", () => {
  it("accepts an authorization the deposit address signed for this chain and delegate, in the stored shape", async () => {
    const auth = await signed(deposit);
    const verdict = verifyAuthorization({ ...auth, address: delegate.toLowerCase(), r: auth.r.toUpperCase().replace("0X", "0x") }, { ...expected, signer: deposit.address.toLowerCase() });
    expect(verdict).toEqual({ ok: true, authorization: { chain_id: CHAIN, address: delegate, nonce: 7, y_parity: auth.y_parity, r: auth.r.toLowerCase(), s: auth.s } });
  });

  it("accepts r without its leading zeros and stores it as a zero-padded 32-byte word", async () => {
    // Signatures are deterministic (RFC 6979): find a nonce whose r starts with a zero digit.
    let auth = await signed(deposit, { nonce: 0 });
    for (let nonce = 1; !auth.r.startsWith("0x0"); nonce++) auth = await signed(deposit, { nonce });
    const verdict = verifyAuthorization({ ...auth, r: auth.r.replace(/^0x0+/, "0x") }, expected);
    expect(verdict).toEqual({ ok: true, authorization: expect.objectContaining({ r: auth.r }) });
  });

  type Case = [string, () => Promise<Authorization>, RegExp];
  const cases: Case[] = [
    ["signed for chain 0 (any chain)", () => signed(deposit, { chainId: 0 }), /^invalid authorization: chain 0 /],
    ["signed for another chain", () => signed(deposit, { chainId: 97 }), /^invalid authorization: chain 97 is not the request's chain 11155111$/],
    ["signed for another delegate", () => signed(deposit, { address: stranger.address }), new RegExp(`^invalid authorization: delegates to ${stranger.address}, not to this hot wallet's delegate ${delegate}$`)],
    ["signed for the zero address", () => signed(deposit, { address: `0x${"0".repeat(40)}` }), /^invalid authorization: delegates to 0x0{40}, /],
    [
      "with a high s (EIP-2)",
      async () => {
        const auth = await signed(deposit);
        return { ...auth, s: hex(SECP256K1_N - BigInt(auth.s)), y_parity: 1 - auth.y_parity };
      },
      /^invalid authorization: signature s is in the upper half/,
    ],
    ["with r = 0", async () => ({ ...(await signed(deposit)), r: "0x0" }), /^invalid authorization: signature r is out of range/],
    ["with r = the curve order", async () => ({ ...(await signed(deposit)), r: hex(SECP256K1_N) }), /^invalid authorization: signature r is out of range/],
    ["with s = 0", async () => ({ ...(await signed(deposit)), s: "0x00" }), /^invalid authorization: signature s is out of range/],
    ["with s above the curve order", async () => ({ ...(await signed(deposit)), s: `0x${"f".repeat(64)}` }), /^invalid authorization: signature s is out of range/],
    ["with an r that is no curve point's x", async () => ({ ...(await signed(deposit)), r: hex(SECP256K1_N - 1n) }), /^invalid authorization: signature /],
    ["signed by another key", () => signed(stranger), new RegExp(`^signed by ${stranger.address}, not the deposit address ${deposit.address}$`)],
    ["with the wrong y_parity", async () => {
      const auth = await signed(deposit);
      return { ...auth, y_parity: 1 - auth.y_parity };
    }, /^signed by 0x[0-9a-fA-F]{40}, not the deposit address /],
    ["signed over another digest (another nonce)", async () => ({ ...(await signed(deposit, { nonce: 7 })), nonce: 8 }), /^signed by 0x[0-9a-fA-F]{40}, not the deposit address /],
  ];

  it.each(cases)("refuses one %s", async (_what, make, message) => {
    const verdict = verifyAuthorization(await make(), expected);
    expect(verdict.ok).toBe(false);
    expect(!verdict.ok && verdict.message).toMatch(message);
  });

  it("checks in the spec's order: chain before delegate before signature before signer", async () => {
    const everythingWrong = { ...(await signed(stranger, { chainId: 97, address: stranger.address })), s: `0x${"f".repeat(64)}` };
    const steps: Array<[Partial<Authorization>, RegExp]> = [
      [{}, /^invalid authorization: chain /],
      [{ chain_id: CHAIN }, /^invalid authorization: delegates to /],
      [{ chain_id: CHAIN, address: delegate }, /^invalid authorization: signature /],
    ];
    for (const [fix, message] of steps) {
      const verdict = verifyAuthorization({ ...everythingWrong, ...fix }, expected);
      expect(!verdict.ok && verdict.message).toMatch(message);
    }
  });
});

describe("verifyAuthorization for a revocation (delegate: the zero address)", () => {
  const revocation = { chainId: CHAIN, delegate: ZeroAddress, delegateName: "the zero address", signer: deposit.address };

  it("accepts the deposit address's authorization of the zero address", async () => {
    const auth = await signed(deposit, { address: ZeroAddress });
    expect(verifyAuthorization(auth, revocation)).toEqual({ ok: true, authorization: expect.objectContaining({ address: ZeroAddress, nonce: 7 }) });
  });

  it.each<[string, () => Promise<Authorization>, RegExp]>([
    ["signed for a delegate", () => signed(deposit), new RegExp(`^invalid authorization: delegates to ${delegate}, not to the zero address$`)],
    ["signed for chain 0", () => signed(deposit, { address: ZeroAddress, chainId: 0 }), /^invalid authorization: chain 0 /],
    ["signed by another key", () => signed(stranger, { address: ZeroAddress }), new RegExp(`^signed by ${stranger.address}, not the deposit address ${deposit.address}$`)],
  ])("refuses one %s with the spec's prefix", async (_what, make, message) => {
    const verdict = verifyAuthorization(await make(), revocation);
    expect(!verdict.ok && verdict.message).toMatch(message);
  });
});

describe("verifiedAuthorization", () => {
  it("returns the stored shape of a valid authorization", async () => {
    const auth = await signed(deposit);
    expect(verifiedAuthorization(auth, expected)).toEqual(expect.objectContaining({ address: delegate, r: auth.r.toLowerCase() }));
  });

  it("throws 422 invalid_authorization with the refusal's message", async () => {
    const auth = await signed(stranger);
    let thrown: unknown;
    try {
      verifiedAuthorization(auth, expected);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect(thrown).toMatchObject({ code: "invalid_authorization", status: 422, message: expect.stringMatching(/^signed by /) });
  });
});
