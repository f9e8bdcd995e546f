import type { ServedChain } from "@sweep/chain";
import type { LogLike } from "@sweep/contracts";
import { toQuantity, type Authorization } from "ethers";
import type { FeeMarket } from "./fees";
import { ChainCallError, broadcastVerdict, type BroadcastVerdict } from "./node-errors";
import { authorizationToRpc } from "./sweep-plan";

export interface Receipt {
  hash: string;
  blockNumber: number;
  succeeded: boolean;
  gasUsed: bigint;
  effectiveGasPrice: bigint;
  logs: readonly LogLike[];
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

interface SimulatedCallRpc {
  status: string;
  returnData: string;
  logs: LogLike[];
  gasUsed: string;
}

/**
 * The JSON-RPC calls the sender makes to one chain. Every call is bounded by a timeout, and any
 * failure (no connection, timeout, error answer) surfaces as ChainCallError; broadcast instead
 * returns what the node's answer means for a stored transaction.
 */
export class ChainClient {
  constructor(
    readonly chain: ServedChain,
    private readonly timeoutMs: number,
  ) {}

  get chainId(): number {
    return this.chain.chainId;
  }

  private get provider() {
    return this.chain.provider;
  }

  private async call<T>(method: string, run: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
    });
    try {
      return await Promise.race([run(), timeout]);
    } catch (err) {
      throw new ChainCallError(method, err);
    } finally {
      clearTimeout(timer);
    }
  }

  headNumber(): Promise<number> {
    return this.call("eth_blockNumber", () => this.provider.getBlockNumber());
  }

  /** The latest block's base fee and gas limit, and the node's suggested tip. */
  async feeMarket(): Promise<FeeMarket & { blockGasLimit: bigint }> {
    const [block, tip] = await Promise.all([
      this.call("eth_getBlockByNumber", () => this.provider.getBlock("latest")),
      this.call("eth_maxPriorityFeePerGas", () => this.provider.send("eth_maxPriorityFeePerGas", []) as Promise<string>),
    ]);
    if (!block) throw new ChainCallError("eth_getBlockByNumber", new Error("no latest block"));
    return { baseFee: block.baseFeePerGas ?? 0n, tip: BigInt(tip), blockGasLimit: block.gasLimit };
  }

  balance(address: string): Promise<bigint> {
    return this.call("eth_getBalance", () => this.provider.getBalance(address, "latest"));
  }

  /** Transactions of `address` counted at a block (or in the node's pool, for "pending"). */
  async nonceAt(address: string, block: "latest" | "pending" | number): Promise<bigint> {
    return BigInt(await this.call("eth_getTransactionCount", () => this.provider.getTransactionCount(address, block)));
  }

  async hasCode(address: string): Promise<boolean> {
    return (await this.call("eth_getCode", () => this.provider.getCode(address))) !== "0x";
  }

  /** The account's code as of a block: "0x" for none, a delegation designator (0xef0100 || address) or contract code. */
  codeAt(address: string, blockNumber: number): Promise<string> {
    return this.call("eth_getCode", () => this.provider.getCode(address, blockNumber));
  }

  async receipt(hash: string): Promise<Receipt | null> {
    const r = await this.call("eth_getTransactionReceipt", () => this.provider.getTransactionReceipt(hash));
    if (!r) return null;
    return { hash: r.hash, blockNumber: r.blockNumber, succeeded: r.status === 1, gasUsed: r.gasUsed, effectiveGasPrice: r.gasPrice, logs: r.logs };
  }

  /** Whether the node has the transaction (in its pool or mined). */
  async isKnown(hash: string): Promise<boolean> {
    return (await this.call("eth_getTransactionByHash", () => this.provider.send("eth_getTransactionByHash", [hash]))) !== null;
  }

  async broadcast(rawTx: string): Promise<"accepted" | BroadcastVerdict> {
    try {
      await this.call("eth_sendRawTransaction", () => this.provider.send("eth_sendRawTransaction", [rawTx]));
      return "accepted";
    } catch (err) {
      return broadcastVerdict(err);
    }
  }

  /**
   * Runs the call as if mined in the next block (eth_simulateV1, authorizations applied), with
   * `gas` as its gas limit when given, and returns its logs (the delegate's per-item events tell
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
      () => this.provider.send("eth_simulateV1", [{ blockStateCalls: [{ calls: [call] }] }, "latest"]) as Promise<Array<{ calls: SimulatedCallRpc[] }>>,
    );
    const result = blocks[0]?.calls[0];
    if (!result) throw new ChainCallError("eth_simulateV1", new Error("no call result"));
    return { succeeded: BigInt(result.status) === 1n, returnData: result.returnData, logs: result.logs, gasUsed: BigInt(result.gasUsed) };
  }

  /** eth_estimateGas; a refusal is a ChainCallError whose cause keeps the node's answer (see estimateFailureReason). */
  estimateGas(request: CallRequest): Promise<bigint> {
    const tx = request.authorizationList?.length ? { ...request, type: 4 } : { from: request.from, to: request.to, data: request.data };
    return this.call("eth_estimateGas", () => this.provider.estimateGas(tx));
  }
}
