import type { LogLike } from "@sweep/contracts";
import { L1_BLOCK_ADDRESS, L1_BLOCK_SLOTS, fjordL1Fee, l1FeeOfCompressedSize, unpackScalars, type L1BlockFees } from "@sweep/fees";
import { getBytes, toQuantity, type Authorization } from "ethers";
import type { ChainProvider } from "./chain-provider";
import { finalAtDepth } from "./finality";
import { ChainCallError, broadcastVerdict, isStateUnavailable, nodeMessage, type BroadcastVerdict } from "./node-errors";

/**
 * A receipt as the node sent it: what watching a transaction needs (where it was mined, whether it
 * succeeded, its gas). What an OP-stack chain charged for its L1 data is read only when it is settled
 * (ChainClient.costed): rounds that only watch it make one call, not four.
 */
export interface NodeReceipt {
  hash: string;
  blockNumber: number;
  blockHash: string;
  succeeded: boolean;
  gasUsed: bigint;
  effectiveGasPrice: bigint;
  /** the L1 data fee where the node's receipt names it (op-geth's and Hardhat 3's OP node's do), else null */
  l1Fee: bigint | null;
  logs: readonly LogLike[];
}

/** A mined transaction's receipt with all it cost, as it is settled and booked. */
export interface Receipt extends Omit<NodeReceipt, "l1Fee"> {
  /** what an OP-stack chain charged for the transaction's L1 data beyond gas used × price; 0 elsewhere */
  l1Fee: bigint;
  /**
   * what the least transaction paid for its L1 data in the same block (Fjord's floor of 100 bytes):
   * a plain transfer's or a token transfer's L1 fee, the classic sweep's; 0 where the chain charges none
   */
  minimumL1Fee: bigint;
}

export interface CallRequest {
  from: string;
  to: string;
  data: string;
  /** present (non-empty) for a type-4 transaction */
  authorizationList?: Authorization[];
}

export interface SimulatedCall {
  succeeded: boolean;
  returnData: string;
  logs: LogLike[];
  /** as a receipt counts it: after refunds */
  gasUsed: bigint;
}

/** The latest block's base fee and gas limit, and the node's suggested tip. */
export interface MarketReading {
  baseFee: bigint;
  tip: bigint;
  blockGasLimit: bigint;
}

interface SimulatedCallRpc {
  status: string;
  returnData: string;
  logs: LogLike[];
  gasUsed: string;
}

/** eth_blockNumber asks of freshHead before it gives up on a node at the head. */
const FRESH_HEAD_ASKS = 3;

/**
 * The chain's head, never below `floor` nor below a head this process was already shown: behind a
 * load balancer a node a few blocks behind may answer, and state read there would not show what
 * the suite already knows was mined (a delegation, a sweep). Asked up to three times; a
 * ChainCallError when every answer was behind. Reads and simulations then name this block, not "latest".
 */
export async function freshHead(provider: ChainProvider, floor = 0): Promise<number> {
  const target = Math.max(floor, provider.endpoints.highestHead);
  let seen = 0;
  for (let ask = 0; ask < FRESH_HEAD_ASKS; ask++) {
    try {
      seen = Number(BigInt((await provider.send("eth_blockNumber", [])) as string));
    } catch (err) {
      throw new ChainCallError("eth_blockNumber", err);
    }
    if (seen >= target) return seen;
  }
  throw new ChainCallError("eth_blockNumber", new Error(`every answer was behind block ${target} (the last: ${seen})`));
}

/**
 * An authorization as JSON-RPC takes it (eth_simulateV1): every number a quantity, r and s too.
 * geth and bsc decode r and s as U256 quantities and refuse leading zeros, which the 32-byte form
 * of a signature has about one time in sixteen each.
 */
export function authorizationToRpc(a: Authorization) {
  return {
    chainId: toQuantity(a.chainId),
    address: a.address,
    nonce: toQuantity(a.nonce),
    yParity: toQuantity(a.signature.yParity),
    r: toQuantity(a.signature.r),
    s: toQuantity(a.signature.s),
  };
}

/** A receipt as the node sent it, checked: quantities in any letter case, optional fields absent. */
export function receiptFromRpc(raw: unknown): NodeReceipt {
  const r = raw as Record<string, unknown>;
  const quantity = (field: string) => {
    const value = r[field];
    if (typeof value !== "string" || !/^0x[0-9a-f]+$/i.test(value)) throw new Error(`the node's receipt has no quantity ${field}: ${JSON.stringify(value)}`);
    return BigInt(value);
  };
  const logs = Array.isArray(r.logs) ? (r.logs as LogLike[]).map((l) => ({ address: l.address, topics: l.topics, data: l.data })) : [];
  return {
    hash: String(r.transactionHash),
    blockNumber: Number(quantity("blockNumber")),
    blockHash: String(r.blockHash),
    succeeded: quantity("status") === 1n,
    gasUsed: quantity("gasUsed"),
    // Pre-London receipts lack it; the suite sends type-2 and type-4 transactions only, whose receipts carry it.
    effectiveGasPrice: quantity("effectiveGasPrice"),
    l1Fee: r.l1Fee === undefined || r.l1Fee === null ? null : quantity("l1Fee"),
    logs,
  };
}

/**
 * The JSON-RPC calls the suite makes to one chain, over its endpoints (failover, timeouts: see
 * RpcEndpoints). Any failure (no endpoint answered, or an error answer) surfaces as ChainCallError;
 * broadcast instead returns what the node's answer means for a stored transaction.
 */
export class ChainClient {
  /** `at`: the block that state reads, simulations and estimates name instead of "latest" (see atBlock) */
  constructor(
    /**
     * `chargesL1DataFee`: an OP-stack chain, whose transactions pay an L1 data fee beyond their gas;
     * `finality` "finalized": outcomes are final at the node's finalized block, not at `confirmations`
     */
    readonly chain: { chainId: number; confirmations: number; provider: ChainProvider; chargesL1DataFee?: boolean; finality?: "depth" | "finalized" },
    private readonly at?: number,
  ) {}

  /**
   * The same client with "latest" fixed at `block`: an attempt's reads all see one state, and no
   * older one than its freshHead. A copy of this very object, so a subclass's overrides stay.
   */
  atBlock(block: number): this {
    return Object.assign(Object.create(Object.getPrototypeOf(this) as object) as this, this, { at: block });
  }

  private get latest(): "latest" | number {
    return this.at ?? "latest";
  }

  get chainId(): number {
    return this.chain.chainId;
  }

  get provider(): ChainProvider {
    return this.chain.provider;
  }

  private async call<T>(method: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      throw new ChainCallError(method, err);
    }
  }

  headNumber(): Promise<number> {
    return this.call("eth_blockNumber", () => this.provider.getBlockNumber());
  }

  /**
   * The newest block whose outcomes are final, given the round's head: `confirmations` deep (the head's
   * own block counting as 1; below 0 on a chain still shorter), or the node's finalized block (never
   * above the head) where the chain settles at finality. A node that names no finalized block fails
   * the call: nothing is final then.
   */
  async finalBlock(head: number): Promise<number> {
    if (this.chain.finality !== "finalized") return finalAtDepth(head, this.chain.confirmations);
    const finalized = await this.call("eth_getBlockByNumber", () => this.provider.getBlock("finalized"));
    if (!finalized) throw new ChainCallError("eth_getBlockByNumber", new Error("the node names no finalized block"));
    return Math.min(head, finalized.number);
  }

  /** The head, never below `floor` nor a head this process was shown (see freshHead). */
  freshHead(floor = 0): Promise<number> {
    return freshHead(this.provider, floor);
  }

  async feeMarket(): Promise<MarketReading> {
    const block = this.latest;
    const [header, tip] = await Promise.all([
      this.call("eth_getBlockByNumber", () => this.provider.getBlock(block)),
      this.call("eth_maxPriorityFeePerGas", () => this.provider.send("eth_maxPriorityFeePerGas", []) as Promise<string>),
    ]);
    if (!header) throw new ChainCallError("eth_getBlockByNumber", new Error(`no block ${block}`));
    return { baseFee: header.baseFeePerGas ?? 0n, tip: BigInt(tip), blockGasLimit: header.gasLimit };
  }

  balance(address: string, block: "latest" | number = this.latest): Promise<bigint> {
    return this.call("eth_getBalance", () => this.provider.getBalance(address, block));
  }

  /** Transactions of `address` counted at a block (or in the node's pool, for "pending"). */
  async nonceAt(address: string, block: "latest" | "pending" | number): Promise<bigint> {
    return BigInt(await this.call("eth_getTransactionCount", () => this.provider.getTransactionCount(address, block)));
  }

  async hasCode(address: string): Promise<boolean> {
    return (await this.call("eth_getCode", () => this.provider.getCode(address, this.latest))) !== "0x";
  }

  /** The account's code as of a block: "0x" for none, a delegation designator (0xef0100 || address) or contract code. */
  codeAt(address: string, blockNumber: number): Promise<string> {
    return this.call("eth_getCode", () => this.provider.getCode(address, blockNumber));
  }

  /**
   * The account's code as of a block, or at the head where the node no longer keeps that block's
   * state (a full node after a long outage of ours): the nearest answer it can give.
   */
  async codeAtOrLater(address: string, blockNumber: number): Promise<string> {
    try {
      return await this.codeAt(address, blockNumber);
    } catch (err) {
      if (!isStateUnavailable(err)) throw err;
      return this.call("eth_getCode", () => this.provider.getCode(address, this.latest));
    }
  }

  /** The transaction's receipt as the node sent it (one call); null while the node that answered has not seen it mined. */
  async receipt(hash: string): Promise<NodeReceipt | null> {
    const raw = await this.call("eth_getTransactionReceipt", () => this.provider.send("eth_getTransactionReceipt", [hash]));
    return raw === null ? null : receiptFromRpc(raw);
  }

  /**
   * A mined transaction's receipt with all it cost: on an OP-stack chain the L1 data fee it paid (the
   * receipt's where the node names it; anvil's optimism mode charges it but its receipts do not say)
   * and its block's least L1 fee, both from L1Block's values as of that block. Elsewhere no call.
   */
  async costed(receipt: NodeReceipt): Promise<Receipt> {
    if (!this.chain.chargesL1DataFee) return { ...receipt, l1Fee: receipt.l1Fee ?? 0n, minimumL1Fee: 0n };
    const fees = await this.l1BlockFees(receipt.blockNumber);
    const l1Fee = receipt.l1Fee ?? (await this.l1FeeCharged(receipt.hash, fees));
    return { ...receipt, l1Fee, minimumL1Fee: l1FeeOfCompressedSize(0n, fees) };
  }

  /**
   * The L1 data fee a mined transaction paid, computed as the chain does: its signed bytes priced at
   * the L1Block predeploy's fee values as of its block (the GasPriceOracle's getL1Fee prices unsigned
   * bytes with a 68-byte allowance for the signature, close but not the fee charged).
   */
  private async l1FeeCharged(hash: string, fees: L1BlockFees): Promise<bigint> {
    const raw = await this.call("eth_getRawTransactionByHash", () => this.provider.send("eth_getRawTransactionByHash", [hash]) as Promise<string | null>);
    if (raw === null) throw new ChainCallError("eth_getRawTransactionByHash", new Error(`the node does not have ${hash}`));
    return fjordL1Fee(getBytes(raw), fees);
  }

  /** The L1Block predeploy's fee values as of a block ("latest" when none is named): what the chain charges L1 data at. */
  async l1BlockFees(block: "latest" | number = this.latest): Promise<L1BlockFees> {
    const slot = (index: bigint) => this.call("eth_getStorageAt", () => this.provider.getStorage(L1_BLOCK_ADDRESS, index, block));
    const [l1BaseFee, scalars, blobBaseFee] = await Promise.all([slot(L1_BLOCK_SLOTS.l1BaseFee), slot(L1_BLOCK_SLOTS.scalars), slot(L1_BLOCK_SLOTS.blobBaseFee)]);
    return { l1BaseFee: BigInt(l1BaseFee), blobBaseFee: BigInt(blobBaseFee), ...unpackScalars(BigInt(scalars)) };
  }

  /**
   * The receipts of `hashes`, each asked in a request of its own (never one batch: a hosted provider
   * answers a batch's members from different backends, so a batch proves nothing about which node
   * answered). A null says only that the backend that answered had not seen it mined.
   */
  receipts(hashes: readonly string[]): Promise<Array<NodeReceipt | null>> {
    return Promise.all(hashes.map((hash) => this.receipt(hash)));
  }

  /** The hash of the canonical chain's block at `blockNumber`; null when the node has no such block (yet). */
  async blockHashAt(blockNumber: number): Promise<string | null> {
    const block = await this.call("eth_getBlockByNumber", () => this.provider.getBlock(blockNumber));
    return block?.hash ?? null;
  }

  /** Whether the node has the transaction (in its pool or mined). */
  async isKnown(hash: string): Promise<boolean> {
    return (await this.call("eth_getTransactionByHash", () => this.provider.send("eth_getTransactionByHash", [hash]))) !== null;
  }

  /**
   * To every endpoint in rotation (see RpcEndpoints): what the answer means for a stored
   * transaction; `heard` is given the node's own words when it refused (a fee cap it names, say).
   */
  async broadcast(rawTx: string, heard?: (message: string) => void): Promise<"accepted" | BroadcastVerdict> {
    try {
      await this.call("eth_sendRawTransaction", () => this.provider.send("eth_sendRawTransaction", [rawTx]));
      return "accepted";
    } catch (err) {
      heard?.(nodeMessage(err));
      return broadcastVerdict(err);
    }
  }

  /**
   * Runs the call as if mined in the next block (eth_simulateV1, authorizations applied),
   * with `gas` as its gas limit when given, and returns its logs (the delegate's per-item events tell
   * which items would fail) and the gas it used.
   */
  async simulate(request: CallRequest & { gas?: bigint }): Promise<SimulatedCall> {
    // An empty authorization list makes it a malformed type-4 call: omit it when there is none.
    const call = {
      from: request.from,
      to: request.to,
      data: request.data,
      ...(request.gas === undefined ? {} : { gas: toQuantity(request.gas) }),
      ...(request.authorizationList?.length ? { authorizationList: request.authorizationList.map(authorizationToRpc) } : {}),
    };
    const blocks = await this.call(
      "eth_simulateV1",
      () => this.provider.send("eth_simulateV1", [{ blockStateCalls: [{ calls: [call] }] }, this.at === undefined ? "latest" : toQuantity(this.at)]) as Promise<Array<{ calls: SimulatedCallRpc[] }>>,
    );
    const result = blocks[0]?.calls[0];
    if (!result) throw new ChainCallError("eth_simulateV1", new Error("no call result"));
    return { succeeded: BigInt(result.status) === 1n, returnData: result.returnData, logs: result.logs, gasUsed: BigInt(result.gasUsed) };
  }

  /** eth_estimateGas; a refusal is a ChainCallError whose cause keeps the node's answer (see estimateFailureReason). */
  estimateGas(request: CallRequest): Promise<bigint> {
    const tx = request.authorizationList?.length ? { ...request, type: 4 } : { from: request.from, to: request.to, data: request.data };
    return this.call("eth_estimateGas", () => this.provider.estimateGas({ ...tx, blockTag: this.latest }));
  }
}
