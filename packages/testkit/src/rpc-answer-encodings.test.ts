import { reencodeResult, type AnswerEncodings, type JsonValue } from "./rpc-answer-encodings";

const ALL: AnswerEncodings = { upperCaseQuantities: true, checksumAddresses: true, omitOptionalFields: true };
const ADDRESS = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";
const CHECKSUMMED = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const HASH = "0x" + "ab".repeat(32);

describe("reencodeResult", () => {
  it.each<[string, JsonValue, AnswerEncodings, JsonValue]>([
    ["eth_blockNumber", "0x1abc", ALL, "0x1ABC"],
    ["eth_blockNumber", "0x1abc", {}, "0x1abc"],
    ["eth_getCode", "0xabcdef", ALL, "0xabcdef"],
    ["eth_call", "0xabcdef", ALL, "0xabcdef"],
    ["eth_getTransactionReceipt", null, ALL, null],
    [
      "eth_getTransactionReceipt",
      { type: "0x2", status: "0x1", gasUsed: "0x5a", blockHash: HASH, from: ADDRESS, blobGasPrice: "0x1", blockTimestamp: "0x6b", logs: [{ address: ADDRESS, data: "0xab", logIndex: "0xa", blockTimestamp: "0x6b" }] },
      ALL,
      { type: "0x2", status: "0x1", gasUsed: "0x5A", blockHash: HASH, from: CHECKSUMMED, logs: [{ address: CHECKSUMMED, data: "0xab", logIndex: "0xA" }] },
    ],
    // A blob transaction's receipt keeps its blob fields.
    ["eth_getTransactionReceipt", { type: "0x3", blobGasPrice: "0x1", blobGasUsed: "0x20000" }, { omitOptionalFields: true }, { type: "0x3", blobGasPrice: "0x1", blobGasUsed: "0x20000" }],
    [
      "eth_getTransactionByHash",
      { type: "0x4", v: "0x1", yParity: "0x1", r: "0xab", input: "0xab", authorizationList: [{ address: ADDRESS, nonce: "0xa", r: "0xcd", s: "0xef", yParity: "0x0", chainId: "0x61" }] },
      ALL,
      { type: "0x4", yParity: "0x1", r: "0xAB", input: "0xab", authorizationList: [{ address: CHECKSUMMED, nonce: "0xA", r: "0xCD", s: "0xEF", yParity: "0x0", chainId: "0x61" }] },
    ],
    // A legacy transaction has no yParity: its v stays.
    ["eth_getTransactionByHash", { type: "0x0", v: "0xe5" }, { omitOptionalFields: true }, { type: "0x0", v: "0xe5" }],
    [
      "eth_getBlockByNumber",
      { number: "0xff", nonce: "0x00000000000000ab", totalDifficulty: "0x0", miner: ADDRESS, transactions: [HASH] },
      ALL,
      { number: "0xFF", nonce: "0x00000000000000ab", miner: CHECKSUMMED, transactions: [HASH] },
    ],
    ["eth_simulateV1", [{ number: "0xa", calls: [{ status: "0x1", gasUsed: "0xff", returnData: "0xab", logs: [] }] }], ALL, [{ number: "0xA", calls: [{ status: "0x1", gasUsed: "0xFF", returnData: "0xab", logs: [] }] }]],
    ["eth_feeHistory", { oldestBlock: "0xa", baseFeePerGas: ["0xa", "0xb"], gasUsedRatio: [0.5] }, ALL, { oldestBlock: "0xA", baseFeePerGas: ["0xA", "0xB"], gasUsedRatio: [0.5] }],
  ])("%s %j with %j reads %j", (method, result, encodings, expected) => {
    expect(reencodeResult(method, result, encodings)).toEqual(expected);
  });
});
