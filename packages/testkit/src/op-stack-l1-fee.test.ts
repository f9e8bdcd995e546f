import { REALISTIC_L1_BLOCK_FEES, setL1BlockFees, startAnvil, type AnvilNode } from "@sweep/anvil";
import { startNode, type ChainNode } from "./test-chains";
import { fjordL1Fee, l1FeeOfCompressedSize, l1FeeReserve, type L1BlockFees } from "@sweep/fees";
import { ChainClient, createProvider } from "@sweep/rpc";
import { JsonRpcProvider, Network, Transaction, Wallet, getBytes } from "ethers";

// anvil in optimism mode charges every transaction an L1 data fee from L1Block's storage, and its
// receipts do not name it. What ChainClient reads as a receipt's l1Fee must be what the node took
// from the sender beyond gas used × price, to the wei, and the reserve kept before signing at least that.
// Hardhat 3's OP node charges the same and names it in its receipts: ChainClient takes the receipt's.

const CHAIN_ID = 11155420;
const DEV_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
/** Dearer than the realistic values, so that the fee is well above a rounding: 20 gwei on L1, 7 gwei per blob gas. */
const SPIKE: L1BlockFees = { ...REALISTIC_L1_BLOCK_FEES, l1BaseFee: 20_000_000_000n, blobBaseFee: 7_000_000_000n };

describe("the L1 data fee on an OP-stack node whose receipts leave it out", () => {
  let node: AnvilNode;
  let direct: JsonRpcProvider;
  let wallet: Wallet;
  const client = () => new ChainClient({ chainId: CHAIN_ID, confirmations: 1, provider: createProvider(node.rpcUrl, CHAIN_ID), chargesL1DataFee: true });
  const costed = async (hash: string, chain = client()) => chain.costed((await chain.receipt(hash))!);

  beforeAll(async () => {
    node = await startAnvil({ chainId: CHAIN_ID, optimism: true });
    await setL1BlockFees(node.rpcUrl, SPIKE);
    direct = new JsonRpcProvider(node.rpcUrl, Network.from(CHAIN_ID), { staticNetwork: Network.from(CHAIN_ID), cacheTimeout: -1 });
    wallet = new Wallet(DEV_KEY, direct);
  });
  afterAll(async () => {
    direct.destroy();
    await node?.stop();
  });

  it.each([
    ["no calldata (under Fjord's 100-byte floor)", "0x"],
    ["500 bytes that compress", "0x" + "ab".repeat(250) + "00".repeat(250)],
    ["3,000 bytes that hardly compress", "0x" + Array.from({ length: 3000 }, (_, i) => ((i * 7919) % 251).toString(16).padStart(2, "0")).join("")],
  ])("reads %s as the fee the node charged, to the wei", async (_what, data) => {
    const nonce = await direct.getTransactionCount(wallet.address, "pending");
    const sent = await wallet.sendTransaction({ to: "0x000000000000000000000000000000000000dEaD", value: 1n, data, gasLimit: 300_000, nonce });
    const mined = (await sent.wait())!;
    const charged = (await direct.getBalance(wallet.address, mined.blockNumber - 1)) - (await direct.getBalance(wallet.address, mined.blockNumber)) - 1n - mined.gasUsed * mined.gasPrice;
    expect((await direct.send("eth_getTransactionReceipt", [sent.hash])).l1Fee).toBeUndefined();

    expect((await client().receipt(sent.hash))!.l1Fee).toBeNull();
    const receipt = await costed(sent.hash);
    expect(charged).toBeGreaterThan(0n);
    expect(receipt.l1Fee).toBe(charged);
    expect(receipt.l1Fee).toBe(fjordL1Fee(getBytes(Transaction.from(sent).serialized), SPIKE));
    expect(l1FeeReserve(getBytes(Transaction.from(sent).unsignedSerialized).length, await client().l1BlockFees())).toBeGreaterThanOrEqual(2n * charged);
  });

  it("reads the fee values as of the receipt's block, not the head's", async () => {
    const nonce = await direct.getTransactionCount(wallet.address, "pending");
    const sent = await wallet.sendTransaction({ to: wallet.address, data: "0x" + "11".repeat(400), gasLimit: 100_000, nonce });
    const mined = (await sent.wait())!;
    // anvil_setStorageAt writes into the head's state: a block first, so the receipt's block keeps its values.
    await direct.send("evm_mine", []);
    await setL1BlockFees(node.rpcUrl, { ...SPIKE, l1BaseFee: SPIKE.l1BaseFee * 3n });
    await direct.send("evm_mine", []);
    const charged = (await direct.getBalance(wallet.address, mined.blockNumber - 1)) - (await direct.getBalance(wallet.address, mined.blockNumber)) - mined.gasUsed * mined.gasPrice;
    expect((await costed(sent.hash)).l1Fee).toBe(charged);
    expect((await client().l1BlockFees()).l1BaseFee).toBe(SPIKE.l1BaseFee * 3n);
    await direct.send("evm_mine", []);
    await setL1BlockFees(node.rpcUrl, SPIKE);
  });

  it("names the block's least L1 fee: what a plain transfer, under Fjord's floor, paid", async () => {
    const nonce = await direct.getTransactionCount(wallet.address, "pending");
    const sent = await wallet.sendTransaction({ to: "0x000000000000000000000000000000000000dEaD", value: 5n, gasLimit: 21_000, nonce });
    const mined = (await sent.wait())!;
    const charged = (await direct.getBalance(wallet.address, mined.blockNumber - 1)) - (await direct.getBalance(wallet.address, mined.blockNumber)) - 5n - mined.gasUsed * mined.gasPrice;
    const receipt = await costed(sent.hash);
    expect(receipt.minimumL1Fee).toBe(charged);
    expect(receipt.minimumL1Fee).toBe(l1FeeOfCompressedSize(0n, SPIKE));
  });

  it("reads no L1 fee on a chain that charges none", async () => {
    const nonce = await direct.getTransactionCount(wallet.address, "pending");
    const sent = await wallet.sendTransaction({ to: wallet.address, gasLimit: 21_000, nonce });
    await sent.wait();
    const l1Chain = new ChainClient({ chainId: CHAIN_ID, confirmations: 1, provider: createProvider(node.rpcUrl, CHAIN_ID) });
    expect(await costed(sent.hash, l1Chain)).toMatchObject({ l1Fee: 0n, minimumL1Fee: 0n });
  });
});

describe("the L1 data fee on Hardhat 3's OP node, whose receipts name it", () => {
  let node: ChainNode;
  let direct: JsonRpcProvider;
  let wallet: Wallet;

  beforeAll(async () => {
    // startNode sets L1Block's realistic values: a 5 gwei L1 base fee at Base's scalars.
    node = await startNode("hardhat-op", CHAIN_ID);
    direct = new JsonRpcProvider(node.rpcUrl, Network.from(CHAIN_ID), { staticNetwork: Network.from(CHAIN_ID), cacheTimeout: -1 });
    wallet = new Wallet(DEV_KEY, direct);
  }, 90_000);
  afterAll(async () => {
    direct?.destroy();
    await node?.stop();
  });

  it("takes the receipt's l1Fee, which is what the node charged and what the formula gives", async () => {
    const sent = await wallet.sendTransaction({ to: "0x000000000000000000000000000000000000dEaD", value: 1n, data: "0x" + "ab".repeat(250) + "00".repeat(250), gasLimit: 300_000 });
    const mined = (await sent.wait())!;
    const charged = (await direct.getBalance(wallet.address, mined.blockNumber - 1)) - (await direct.getBalance(wallet.address, mined.blockNumber)) - 1n - mined.gasUsed * mined.gasPrice;
    const named = BigInt((await direct.send("eth_getTransactionReceipt", [sent.hash])).l1Fee);

    const chain = new ChainClient({ chainId: CHAIN_ID, confirmations: 1, provider: createProvider(node.rpcUrl, CHAIN_ID), chargesL1DataFee: true });
    const receipt = await chain.costed((await chain.receipt(sent.hash))!);
    expect(charged).toBeGreaterThan(0n);
    expect([receipt.l1Fee, named]).toEqual([charged, charged]);
    expect(receipt.l1Fee).toBe(fjordL1Fee(getBytes(Transaction.from(sent).serialized), REALISTIC_L1_BLOCK_FEES));
    expect(receipt.minimumL1Fee).toBe(l1FeeOfCompressedSize(0n, REALISTIC_L1_BLOCK_FEES));
  });

  it("refuses a type-4 transaction, as EDR 0.22 does: sweeps run on anvil's optimism mode", async () => {
    const authorization = await wallet.authorize({ address: "0x000000000000000000000000000000000000dEaD", nonce: (await direct.getTransactionCount(wallet.address)) + 1, chainId: CHAIN_ID });
    await expect(wallet.sendTransaction({ type: 4, to: wallet.address, authorizationList: [authorization], gasLimit: 100_000 })).rejects.toThrow(/type 4/i);
  });
});
