/**
 * A fresh node (anvil unless told otherwise) with the factory, one hot wallet's delegate and a
 * token deployed, and helpers to send sweep batches: shared by the contract tests and the gas report.
 */
import { startAnvil, type AnvilNode, type AnvilOptions } from "@sweep/anvil";
import {
  Contract,
  JsonRpcProvider,
  NonceManager,
  Wallet,
  keccak256,
  parseEther,
  toBeHex,
  toUtf8Bytes,
  type Authorization,
  type Signer,
  type TransactionReceipt,
} from "ethers";
import {
  contractAt,
  contractFactory,
  decodeSweepOutcomes,
  delegateAddress,
  encodeSweepBatch,
  type ContractName,
  type SweepItem,
  type SweepOutcome,
} from "../../src";

export interface SweepChain {
  provider: JsonRpcProvider;
  chainId: bigint;
  /**
   * The partner's gas wallet. Its nonces are counted locally: right after automining a
   * transaction, anvil can still answer the previous "pending" nonce.
   */
  operator: NonceManager;
  operatorAddress: string;
  hotWallet: string;
  factory: Contract;
  delegate: Contract;
  delegateAddress: string;
  /** a 6-decimal token, as USDT on Sepolia */
  token: Contract;
  tokenAddress: string;
  stop(): Promise<void>;
}

export interface BatchResult {
  receipt: TransactionReceipt;
  outcomes: SweepOutcome[];
}

const CHAIN_ID = 11155111;

/** Starts a node in automine: startAnvil, or @sweep/hardhat-node's startHardhatNode. */
export type StartNode = (options: Pick<AnvilOptions, "chainId">) => Promise<AnvilNode>;

export async function startSweepChain(startNode: StartNode = startAnvil): Promise<SweepChain> {
  const node = await startNode({ chainId: CHAIN_ID });
  // Automine confirms each transaction at once: no reason to delay requests to batch them, and
  // ethers' 250 ms cache of identical requests would answer a balance from before a batch.
  const provider = new JsonRpcProvider(node.rpcUrl, CHAIN_ID, { staticNetwork: true, batchStallTime: 0, cacheTimeout: -1, pollingInterval: 20 });
  const stop = async () => {
    provider.destroy();
    await node.stop();
  };
  try {
    const operatorWallet = labelledWallet(provider, "operator");
    await setBalance(provider, operatorWallet.address, parseEther("1000"));
    const operator = new NonceManager(operatorWallet);
    const factory = await deploy("DelegateFactory", operator);
    const hotWallet = labelledWallet(provider, "hot wallet").address;
    const delegate = await deployDelegate(factory, operator, hotWallet, operatorWallet.address);
    const token = await deploy("DevToken", operator, "Tether USD", "USDT", 6);
    return {
      provider,
      chainId: BigInt(CHAIN_ID),
      operator,
      operatorAddress: operatorWallet.address,
      hotWallet,
      factory,
      delegate,
      delegateAddress: delegate.target as string,
      token,
      tokenAddress: token.target as string,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

export async function deploy(name: ContractName, signer: Signer, ...args: unknown[]): Promise<Contract> {
  const contract = await contractFactory(name, signer).deploy(...args);
  await contract.waitForDeployment();
  return contract as Contract;
}

/** Deploys the SweepDelegate of (hotWallet, operator) through the factory. */
export async function deployDelegate(factory: Contract, signer: Signer, hotWallet: string, operator: string): Promise<Contract> {
  await (await factory.getFunction("deploy")(hotWallet, operator)).wait();
  return contractAt("SweepDelegate", delegateAddress(factory.target as string, hotWallet, operator), signer);
}

/** A wallet whose key follows from `label`, so that runs are reproducible. */
export function labelledWallet(provider: JsonRpcProvider, label: string): Wallet {
  return new Wallet(keccak256(toUtf8Bytes(`sweep-chain:${label}`)), provider);
}

/** Through hardhat's name for it, which anvil also takes. */
export async function setBalance(provider: JsonRpcProvider, address: string, wei: bigint): Promise<void> {
  await provider.send("hardhat_setBalance", [address, toBeHex(wei)]);
}

/** The deposit address's authorization of `delegate` at its current nonce. */
export async function authorize(chain: SweepChain, depositAddress: Wallet, delegate = chain.delegateAddress): Promise<Authorization> {
  const nonce = await chain.provider.getTransactionCount(depositAddress.address);
  return depositAddress.authorizeSync({ address: delegate, nonce, chainId: chain.chainId });
}

/** Sends one sweepBatch, by default as the operator; type 4 when it carries authorizations. */
export async function sendBatch(
  chain: SweepChain,
  items: readonly SweepItem[],
  authorizationList: Authorization[] = [],
  from: Signer = chain.operator,
): Promise<BatchResult> {
  const request = { to: chain.delegateAddress, data: encodeSweepBatch(items) };
  const response = await from.sendTransaction(authorizationList.length > 0 ? { ...request, type: 4, authorizationList } : request);
  const receipt = await response.wait();
  if (!receipt) throw new Error("sweep batch has no receipt");
  return { receipt, outcomes: decodeSweepOutcomes(receipt.logs, chain.delegateAddress) };
}
