import { CREATE2_DEPLOYER, factoryDeployment, factoryRuntimeCode } from "@sweep/chains";
import { ChainCallError, type ChainClient, type NodeReceipt } from "@sweep/rpc";
import { concat, formatUnits, type Wallet } from "ethers";

/**
 * The runtime code of the deterministic deployment proxy (github.com/Arachnid/deterministic-deployment-proxy)
 * that anvil predeploys and most public chains hold at CREATE2_DEPLOYER: the CREATE2 address is
 * the one computed only if this exact code runs there.
 */
export const CREATE2_DEPLOYER_CODE = "0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf3";

/** Why a deployment did not happen, or did not finish; each message says what to do. */
export type DeploymentRefusal = "wrong_chain" | "no_create2_deployer" | "unexpected_code" | "pending_transactions" | "insufficient_funds" | "refused" | "not_mined" | "reverted";

export class FactoryDeploymentError extends Error {
  constructor(
    readonly reason: DeploymentRefusal,
    message: string,
  ) {
    super(message);
    this.name = "FactoryDeploymentError";
  }
}

export type FactoryOutcome =
  | { status: "already_deployed"; address: string }
  | { status: "deployed"; address: string; txHash: string; gasUsed: bigint; feePaid: bigint };

export interface DeploymentTarget {
  /** the native coin's ticker, for the messages */
  nativeTicker: string;
  /** how long to wait for the deployment to be mined, and how often to look */
  minedWithinMs: number;
  pollMs: number;
  /** progress for the operator (the transaction's hash while it is mined) */
  say(line: string): void;
}

/**
 * Deploys the delegate factory through the CREATE2 deployer, from `deployer`, so that its address
 * is the same on every chain. Sends nothing when the factory's code is already there, and refuses
 * before sending when the deployer contract is missing, the deployer account has transactions
 * pending (a second deployment would only revert) or holds too little to pay. The fees are the
 * services' own: the node's suggested tip, and room for the base fee to double.
 */
export async function deployFactory(client: ChainClient, deployer: Wallet, target: DeploymentTarget): Promise<FactoryOutcome> {
  const { chainId } = client;
  const code = async (address: string) => (await read("eth_getCode", () => client.provider.getCode(address))).toLowerCase();
  const deployerCode = await code(CREATE2_DEPLOYER);
  if (deployerCode === "0x") {
    throw new FactoryDeploymentError(
      "no_create2_deployer",
      `chain ${chainId} has no CREATE2 deployer at ${CREATE2_DEPLOYER}: deploy it with its published one-time transaction ` +
        `(github.com/Arachnid/deterministic-deployment-proxy; docs/real-chains.md, "No CREATE2 deployer") and run this again, ` +
        `or deploy DelegateFactory another way and set FACTORY_ADDRESS_${chainId}`,
    );
  }
  if (deployerCode !== CREATE2_DEPLOYER_CODE) {
    throw new FactoryDeploymentError(
      "unexpected_code",
      `chain ${chainId} has other code than the deterministic deployment proxy at ${CREATE2_DEPLOYER}: the factory cannot get its usual address there; deploy it another way and set FACTORY_ADDRESS_${chainId}`,
    );
  }

  const factory = factoryDeployment();
  const expectedCode = factoryRuntimeCode().toLowerCase();
  const existing = await code(factory.address);
  if (existing === expectedCode) return { status: "already_deployed", address: factory.address };
  if (existing !== "0x") throw new FactoryDeploymentError("unexpected_code", `chain ${chainId} has other code than this release's DelegateFactory at ${factory.address}`);

  const from = deployer.address;
  const [mined, pending] = await Promise.all([client.nonceAt(from, "latest"), client.nonceAt(from, "pending")]);
  if (pending > mined) {
    throw new FactoryDeploymentError("pending_transactions", `the deployer ${from} has ${pending - mined} transaction(s) pending on chain ${chainId}: run this again once they are mined`);
  }
  const request = { from, to: CREATE2_DEPLOYER, data: concat([factory.salt, factory.initCode]) };
  const [gasLimit, market, balance] = await Promise.all([client.estimateGas(request), client.feeMarket(), client.balance(from)]);
  const maxPriorityFeePerGas = market.tip;
  const maxFeePerGas = market.baseFee * 2n + market.tip;
  const needed = gasLimit * maxFeePerGas;
  if (balance < needed) {
    const coin = (wei: bigint) => `${formatUnits(wei)} ${target.nativeTicker}`;
    throw new FactoryDeploymentError(
      "insufficient_funds",
      `the deployer ${from} holds ${coin(balance)} on chain ${chainId}; the deployment needs up to ${coin(needed)} ` +
        `(${gasLimit} gas at ${formatUnits(maxFeePerGas, "gwei")} gwei): send it at least ${coin(needed - balance)} more`,
    );
  }

  const signed = await deployer.signTransaction({ ...request, type: 2, chainId, nonce: Number(mined), gasLimit, maxFeePerGas, maxPriorityFeePerGas });
  const hash = await read("eth_sendRawTransaction", () => client.provider.send("eth_sendRawTransaction", [signed]) as Promise<string>).catch((err: Error) => {
    throw new FactoryDeploymentError("refused", `the node refused the deployment: ${err.message}`);
  });
  target.say(`sent ${hash} (nonce ${mined}); waiting for it to be mined`);
  const receipt = await minedReceipt(client, hash, target);
  if (receipt === null) {
    throw new FactoryDeploymentError(
      "not_mined",
      `${hash} was not mined within ${target.minedWithinMs / 1000} s: run this again once it is mined (it then sends nothing) or dropped`,
    );
  }
  if (!receipt.succeeded || (await code(factory.address)) !== expectedCode) {
    // Another deployment may have been mined first: ours then reverts on the taken address.
    if ((await code(factory.address)) === expectedCode) return { status: "already_deployed", address: factory.address };
    throw new FactoryDeploymentError("reverted", `${hash} did not deploy DelegateFactory at ${factory.address} (${receipt.succeeded ? "succeeded" : "reverted"}, ${receipt.gasUsed} gas used)`);
  }
  return { status: "deployed", address: factory.address, txHash: hash, gasUsed: receipt.gasUsed, feePaid: await feePaid(client, receipt) };
}

/** What the deployment cost its deployer: gas, and on an OP-stack chain its L1 data fee. */
async function feePaid(client: ChainClient, receipt: NodeReceipt): Promise<bigint> {
  const costed = await client.costed(receipt);
  return costed.gasUsed * costed.effectiveGasPrice + costed.l1Fee;
}

async function minedReceipt(client: ChainClient, hash: string, target: DeploymentTarget) {
  const deadline = Date.now() + target.minedWithinMs;
  for (;;) {
    // A failed look (the endpoint's moment of trouble) is only a look that found nothing yet.
    const receipt = await client.receipt(hash).catch(() => null);
    if (receipt !== null || Date.now() >= deadline) return receipt;
    await new Promise((resolve) => setTimeout(resolve, target.pollMs));
  }
}

/** A read outside ChainClient's methods, failing as theirs do (the node's own words, never the URL). */
async function read<T>(method: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw new ChainCallError(method, err);
  }
}
