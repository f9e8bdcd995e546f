import { Signature, Wallet, toBeHex, zeroPadValue } from "ethers";
import { authorizationToRpc, receiptFromRpc } from "./chain-client";

describe("an authorization as eth_simulateV1 takes it", () => {
  const signed = (r: string, s: string) => ({
    chainId: 97n,
    address: Wallet.createRandom().address,
    nonce: 0n,
    signature: Signature.from({ r, s, yParity: 1 }),
  });

  it.each([
    ["r with a leading zero byte", zeroPadValue("0x5a", 32), toBeHex(1n, 32), "0x5a", "0x1"],
    ["s with leading zero digits", toBeHex(0x1234n << 200n, 32), zeroPadValue("0x0abc", 32), toBeHex(0x1234n << 200n), "0xabc"],
  ])("every number a quantity, never padded: %s", (_name, r, s, rQuantity, sQuantity) => {
    expect(authorizationToRpc(signed(r, s))).toMatchObject({ chainId: "0x61", nonce: "0x0", yParity: "0x1", r: rQuantity, s: sQuantity });
  });
});

describe("a receipt as a node sends it", () => {
  const raw = {
    transactionHash: "0xaa",
    blockNumber: "0x1F",
    blockHash: "0xbb",
    status: "0x1",
    gasUsed: "0x5208",
    effectiveGasPrice: "0x3B9ACA00",
    logs: [{ address: "0xcc", topics: ["0xdd"], data: "0x", logIndex: "0x0" }],
  };

  it("reads quantities in any letter case and keeps what the sender needs", () => {
    expect(receiptFromRpc(raw)).toEqual({
      hash: "0xaa",
      blockNumber: 31,
      blockHash: "0xbb",
      succeeded: true,
      gasUsed: 21_000n,
      effectiveGasPrice: 1_000_000_000n,
      l1Fee: null,
      logs: [{ address: "0xcc", topics: ["0xdd"], data: "0x" }],
    });
    expect(receiptFromRpc({ ...raw, status: "0x0", logs: undefined })).toMatchObject({ succeeded: false, logs: [] });
  });

  it("keeps the L1 data fee an OP-stack node names, and refuses one that is no quantity", () => {
    expect(receiptFromRpc({ ...raw, l1Fee: "0x222b1f3a4F00" }).l1Fee).toBe(37_568_602_853_120n);
    expect(receiptFromRpc({ ...raw, l1Fee: null }).l1Fee).toBeNull();
    expect(() => receiptFromRpc({ ...raw, l1Fee: "1.5" })).toThrow("the node's receipt has no quantity l1Fee");
  });

  it.each([["status"], ["gasUsed"], ["effectiveGasPrice"]])("refuses a receipt without %s rather than reading a zero", (field) => {
    expect(() => receiptFromRpc({ ...raw, [field]: undefined })).toThrow(`the node's receipt has no quantity ${field}`);
  });
});
