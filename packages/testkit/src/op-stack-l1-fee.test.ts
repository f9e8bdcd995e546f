import { REALISTIC_L1_BLOCK_FEES, setL1BlockFees, startAnvil, type AnvilNode } from "@sweep/anvil";
import { startNode, type ChainNode } from "./test-chains";
import { L1_BLOCK_ADDRESS, fastLzCompressedLength, fjordL1Fee, l1FeeOfCompressedSize, l1FeeReserve, type L1BlockFees } from "@sweep/fees";
import { ChainClient, createProvider } from "@sweep/rpc";
import { Contract, JsonRpcProvider, Network, Transaction, Wallet, getBytes, keccak256, toUtf8Bytes, zeroPadValue } from "ethers";

// anvil in optimism mode charges every transaction an L1 data fee from L1Block's storage, and its
// receipts do not name it. What ChainClient reads as a receipt's l1Fee must be what the node took
// from the sender beyond gas used × price, to the wei, and the reserve kept before signing at least that.
// Hardhat 3's OP node charges the same and names it in its receipts: ChainClient takes the receipt's.
// The GasPriceOracle predeploy, copied from Hardhat 3's genesis onto anvil, prices a transaction's
// unsigned bytes: where it and the chain part, and why.

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

describe("the GasPriceOracle predeploy, copied from Hardhat 3's genesis onto anvil's optimism mode", () => {
  const GAS_PRICE_ORACLE = "0x420000000000000000000000000000000000000F";
  /** What Fjord's getL1Fee adds to the unsigned transaction's FastLZ size for the signature it has not seen. */
  const ORACLE_SIGNATURE_ALLOWANCE = 68;
  let hardhat: ChainNode;
  let anvil: AnvilNode;
  let direct: JsonRpcProvider;
  let wallet: Wallet;
  let oracle: Contract;

  beforeAll(async () => {
    hardhat = await startNode("hardhat-op", CHAIN_ID);
    anvil = await startAnvil({ chainId: CHAIN_ID, optimism: true });
    await setL1BlockFees(anvil.rpcUrl, REALISTIC_L1_BLOCK_FEES);
    direct = new JsonRpcProvider(anvil.rpcUrl, Network.from(CHAIN_ID), { staticNetwork: Network.from(CHAIN_ID), cacheTimeout: -1 });
    // anvil's L1Block is storage only: the oracle reads it through L1Block's getters, so both contracts' code, and the
    // oracle's flags (slot 0: isEcotone, isFjord, isIsthmus) as Hardhat 3's genesis sets them.
    const genesis = new JsonRpcProvider(hardhat.rpcUrl, Network.from(CHAIN_ID), { staticNetwork: Network.from(CHAIN_ID) });
    for (const predeploy of [GAS_PRICE_ORACLE, L1_BLOCK_ADDRESS]) await direct.send("anvil_setCode", [predeploy, await genesis.getCode(predeploy)]);
    await direct.send("anvil_setStorageAt", [GAS_PRICE_ORACLE, zeroPadValue("0x", 32), await genesis.getStorage(GAS_PRICE_ORACLE, 0)]);
    genesis.destroy();
    wallet = new Wallet(DEV_KEY, direct);
    // Called from a funded account: anvil's optimism mode charges an eth_call's sender the L1 fee too, and the zero address has nothing.
    oracle = new Contract(GAS_PRICE_ORACLE, ["function isFjord() view returns (bool)", "function getL1Fee(bytes) view returns (uint256)", "function getL1FeeUpperBound(uint256) view returns (uint256)"], wallet);
  }, 90_000);
  afterAll(async () => {
    direct?.destroy();
    await anvil?.stop();
    await hardhat?.stop();
  });

  /** `length` bytes no compressor shrinks, the same each run. */
  const incompressible = (length: number) => {
    let bytes = "";
    for (let i = 0; bytes.length < 2 * length; i++) bytes += keccak256(toUtf8Bytes(`calldata ${i}`)).slice(2);
    return `0x${bytes.slice(0, 2 * length)}`;
  };

  // The oracle's upper bound takes FastLZ to add at most 1/255 of the size and 16 bytes: 99.99% of transactions, it says,
  // but not calldata that does not compress, where FastLZ adds a byte per 32 (a sweep batch's authorizations are 65 random
  // bytes each). The service's reserve counts that worst case, twice over for the L1 price moving before inclusion.
  it.each([
    ["no calldata", "0x", true],
    ["a token transfer's calldata", "0xa9059cbb" + "00".repeat(12) + "11".repeat(20) + "00".repeat(29) + "0f4240", true],
    ["500 bytes that compress", "0x" + "ab".repeat(250) + "00".repeat(250), true],
    ["2,000 bytes that do not compress (as a sweep batch's signatures)", incompressible(2_000), false],
  ])("%s: getL1Fee prices the unsigned bytes plus 68, the chain the signed bytes; the service's reserve covers both and the upper bound", async (_what, data, boundCovers) => {
    expect(await oracle.getFunction("isFjord")()).toBe(true);
    const nonce = await direct.getTransactionCount(wallet.address, "pending");
    const sent = await wallet.sendTransaction({ to: "0x000000000000000000000000000000000000dEaD", value: 1n, data, gasLimit: 500_000, nonce });
    const mined = (await sent.wait())!;
    const charged = (await direct.getBalance(wallet.address, mined.blockNumber - 1)) - (await direct.getBalance(wallet.address, mined.blockNumber)) - 1n - mined.gasUsed * mined.gasPrice;
    const unsigned = getBytes(Transaction.from(sent).unsignedSerialized);
    const signed = getBytes(Transaction.from(sent).serialized);
    const atBlock = { blockTag: mined.blockNumber };
    const quoted: bigint = await oracle.getFunction("getL1Fee")(unsigned, atBlock);
    const upperBound: bigint = await oracle.getFunction("getL1FeeUpperBound")(unsigned.length, atBlock);

    expect(charged).toBe(fjordL1Fee(signed, REALISTIC_L1_BLOCK_FEES));
    expect(quoted).toBe(l1FeeOfCompressedSize(BigInt(fastLzCompressedLength(unsigned) + ORACLE_SIGNATURE_ALLOWANCE), REALISTIC_L1_BLOCK_FEES));
    // The signature's 65 bytes do not compress: the allowance misses the signed size by a few bytes, so the quote is
    // the charge under Fjord's 100-byte floor and within a few bytes' price of it above.
    expect(Math.abs(fastLzCompressedLength(signed) - fastLzCompressedLength(unsigned) - ORACLE_SIGNATURE_ALLOWANCE)).toBeLessThanOrEqual(4);
    expect(upperBound >= charged).toBe(boundCovers);
    const reserve = l1FeeReserve(unsigned.length, REALISTIC_L1_BLOCK_FEES);
    expect(reserve).toBeGreaterThanOrEqual(2n * charged);
    expect(reserve).toBeGreaterThanOrEqual(upperBound);
  });
});
