/**
 * `platform deploy` against real nodes, anvil and hardhat's, that have no platform contracts: a
 * fresh chain gets the factory at the deterministic address, a second run sends nothing, and a
 * chain without the CREATE2 deployer, a key without funds or a node of another chain are refused
 * before anything is sent. The key and the RPC URL's path and query never reach the output.
 */
import { freePort, startAnvil, type AnvilNode } from "@sweep/anvil";
import { CREATE2_DEPLOYER, devTokenDeployment, factoryDeployment, factoryRuntimeCode } from "@sweep/chains";
import { createProvider, type ChainProvider } from "@sweep/rpc";
import { loadConfig } from "@sweep/common";
import { NODE_KINDS, runSweepctl, startNode } from "@sweep/testkit";
import { Wallet, concat, formatUnits, getAddress, parseEther, toQuantity } from "ethers";
import type { ConfigurationItem } from "./chain-configuration-report";
import { cliEnv } from "./context";
import { FactoryDeploymentError } from "./factory-deployment";
import { deployPlatform, type PlatformDeployment } from "./platform-commands";
import { captureOutput, type CapturedOutput } from "./test-support";

const CHAIN = 97;
const TIMINGS = { requestTimeoutMs: 5_000, minedWithinMs: 30_000, pollMs: 100 };
const FACTORY = getAddress(factoryDeployment().address);

/** `platform deploy --chain <chain>` with exactly this environment (none of the test process's own). */
async function deploy(env: NodeJS.ProcessEnv, chain = String(CHAIN)): Promise<CapturedOutput & { printed: PlatformDeployment }> {
  const out = captureOutput();
  await deployPlatform({ config: loadConfig(cliEnv, env), out }, { chain }, env, TIMINGS);
  return Object.assign(out, { printed: out.results[0] as PlatformDeployment });
}

function refusal(promise: Promise<unknown>): Promise<FactoryDeploymentError> {
  return promise.then(
    () => {
      throw new Error("expected a refusal");
    },
    (err: unknown) => {
      if (!(err instanceof FactoryDeploymentError)) throw err;
      return err;
    },
  );
}

function item(printed: PlatformDeployment, variable: string): ConfigurationItem {
  const found = printed.configuration.find((i) => i.variable === variable);
  if (!found) throw new Error(`${variable} is not in the configuration printed`);
  return found;
}

describe.each(NODE_KINDS)("platform deploy on a fresh chain (%s)", (kind) => {
  let anvil: AnvilNode;
  let chain: ChainProvider;
  const deployer = Wallet.createRandom();
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    anvil = await startNode(kind, CHAIN);
    chain = createProvider(anvil.rpcUrl, CHAIN);
    env = { SERVICE_ENV: "testnet", RPC_URL_97: anvil.rpcUrl, DEPLOYER_KEY: deployer.privateKey };
  });
  afterAll(async () => {
    chain?.destroy();
    await anvil?.stop();
  });
  const state = async () => ({
    nonce: await chain.getTransactionCount(deployer.address, "latest"),
    balance: await chain.getBalance(deployer.address),
    block: await chain.getBlockNumber(),
    factoryCode: await chain.getCode(FACTORY),
  });

  it("refuses a deployer without funds, naming what the deployment needs, and sends nothing", async () => {
    const err = await refusal(deploy(env));
    expect(err.reason).toBe("insufficient_funds");
    expect(err.message).toMatch(new RegExp(`^the deployer ${deployer.address} holds 0\\.0 tBNB on chain 97; the deployment needs up to 0\\.\\d+ tBNB \\(\\d+ gas at [\\d.]+ gwei\\): send it at least 0\\.\\d+ tBNB more$`));
    expect(await state()).toMatchObject({ nonce: 0, block: 0, factoryCode: "0x" });
  });

  it("deploys the factory at the deterministic address through the CREATE2 deployer, and prints what to configure", async () => {
    await chain.send("hardhat_setBalance", [deployer.address, toQuantity(parseEther("1"))]);
    const out = await deploy(env);
    const { factory } = out.printed;
    expect(factory).toEqual({ address: FACTORY, status: "deployed", tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/), gas_used: expect.stringMatching(/^\d+$/), fee_paid: expect.stringMatching(/^\d+$/) });
    expect((await chain.getCode(FACTORY)).toLowerCase()).toBe(factoryRuntimeCode().toLowerCase());
    const tx = await chain.getTransaction(factory.tx_hash!);
    expect([tx?.from, tx?.to, tx?.type]).toEqual([deployer.address, CREATE2_DEPLOYER, 2]);
    expect(await state()).toMatchObject({ nonce: 1, balance: parseEther("1") - BigInt(factory.fee_paid!) });
    expect(out.notes).toEqual([`sent ${factory.tx_hash} (nonce 0); waiting for it to be mined`]);
    expect(out.lines[1]).toBe(`DelegateFactory deployed at ${FACTORY}: ${factory.tx_hash}, ${BigInt(factory.gas_used!).toLocaleString("en-US")} gas, ${formatUnits(BigInt(factory.fee_paid!))} tBNB`);

    expect(out.printed).toMatchObject({ chain_id: 97, name: "BSC Testnet", rpc_endpoint: `127.0.0.1:${anvil.port}`, deployer: deployer.address });
    expect(out.printed.configuration.map((i) => [i.variable, i.status, i.value])).toEqual([
      ["RPC_URL_97", "set", anvil.rpcUrl],
      ["FACTORY_ADDRESS_97", "not_needed", null],
      ["CONFIRMATIONS_97", "default", "1"],
      // A fresh chain has no devnet token where the services would look without TOKEN_97_USDT.
      ["TOKEN_97_USDT", "required", null],
      ["TREASURY_ADDRESS_97", "required", null],
      ["CLASSIC_GAS_97_USDT", "default", "50583,50583"],
    ]);
    expect(out.lines).toContain("The services on chain 97 (docs/real-chains.md):");
    expect(out.lines).toContainEqual(expect.stringMatching(/^ {2}TOKEN_97_USDT +required: unset, the services look for USDT at 0x[0-9a-fA-F]{40}, which has no code here/));
  });

  it("sends nothing when run again: the factory is there with its code", async () => {
    const before = await state();
    const out = await deploy(env);
    expect(out.printed.factory).toEqual({ address: FACTORY, status: "already_deployed", tx_hash: null, gas_used: null, fee_paid: null });
    expect(out.lines[1]).toBe(`DelegateFactory already at ${FACTORY}: nothing sent`);
    expect(out.notes).toEqual([]);
    expect(await state()).toEqual(before);
  });

  it("checks the configuration it prints against the chain: the token's code and decimals, the factory named, the treasury", async () => {
    // The devnet token the services look for when TOKEN_97_USDT is unset, with the decimals they list (18).
    const token = devTokenDeployment("USDT", 18);
    const funded = deployer.connect(chain);
    await (await funded.sendTransaction({ to: CREATE2_DEPLOYER, data: concat([token.salt, token.initCode]) })).wait();
    const treasury = Wallet.createRandom().address;
    const configured = { ...env, CONFIRMATIONS_97: "3", TREASURY_ADDRESS_97: treasury, CLASSIC_GAS_97_USDT: "61000,52000", FACTORY_ADDRESS_97: FACTORY };
    const { printed } = await deploy(configured);
    expect(printed.configuration.map((i) => [i.variable, i.status, i.value])).toEqual([
      ["RPC_URL_97", "set", anvil.rpcUrl],
      ["FACTORY_ADDRESS_97", "not_needed", null],
      ["CONFIRMATIONS_97", "set", "3"],
      ["TOKEN_97_USDT", "default", getAddress(token.address)],
      ["TREASURY_ADDRESS_97", "set", treasury],
      ["CLASSIC_GAS_97_USDT", "set", "61000,52000"],
    ]);

    // A token contract the chain lacks, a contract that is no ERC-20, another factory than the deterministic one.
    const elsewhere = Wallet.createRandom().address;
    expect(item((await deploy({ ...env, TOKEN_97_USDT: elsewhere })).printed, "TOKEN_97_USDT")).toMatchObject({ status: "wrong", value: elsewhere, note: expect.stringMatching(/^no contract at that address on this chain/) });
    expect(item((await deploy({ ...env, TOKEN_97_USDT: FACTORY })).printed, "TOKEN_97_USDT")).toMatchObject({ status: "wrong", note: expect.stringMatching(/^decimals\(\) answers nothing: set the USDT contract on this chain, an ERC-20 with 18 decimals/) });
    expect(item((await deploy({ ...env, FACTORY_ADDRESS_97: elsewhere })).printed, "FACTORY_ADDRESS_97")).toMatchObject({ status: "wrong", value: elsewhere });
  });

  it("fails over past an endpoint that does not answer, and shows no endpoint's path or query", async () => {
    const dead = `http://127.0.0.1:${await freePort()}/v3/secret-path-key`;
    const out = await deploy({ ...env, RPC_URL_97: `${dead},${anvil.rpcUrl}/?apikey=secret-query-key` });
    expect(out.printed).toMatchObject({ rpc_endpoint: `127.0.0.1:${anvil.port}`, factory: { status: "already_deployed" } });
    expect(out.notes).toEqual([expect.stringMatching(new RegExp(`^RPC_URL_97: 127\\.0\\.0\\.1:\\d+: .+; skipped$`))]);
    expect(JSON.stringify([out.results, out.lines, out.notes])).not.toMatch(/secret/);
  });

  it("refuses an endpoint that serves another chain than --chain", async () => {
    const err = await refusal(deploy({ ...env, RPC_URL_11155111: anvil.rpcUrl }, "11155111"));
    expect(err.reason).toBe("wrong_chain");
    expect(err.message).toBe(`RPC_URL_11155111 names 127.0.0.1:${anvil.port}, a node of chain 97, not 11155111`);
  });

});

describe("platform deploy as a process", () => {
  let anvil: AnvilNode;
  beforeAll(async () => {
    anvil = await startAnvil({ chainId: CHAIN });
  });
  afterAll(() => anvil?.stop());

  it("prints JSON on stdout, the transaction on stderr, and the key nowhere", async () => {
    const deployer = Wallet.createRandom();
    const chain = createProvider(anvil.rpcUrl, CHAIN);
    await chain.send("anvil_setBalance", [deployer.address, toQuantity(parseEther("1"))]);
    chain.destroy();
    const { code, stdout, stderr } = await runSweepctl(["platform", "deploy", "--chain", "97", "--json"], { SERVICE_ENV: "testnet", RPC_URL_97: anvil.rpcUrl, DEPLOYER_KEY: deployer.privateKey });
    expect(code).toBe(0);
    const printed = JSON.parse(stdout) as PlatformDeployment;
    expect(printed.factory).toMatchObject({ address: FACTORY, status: "deployed" });
    expect(stderr).toBe(`sent ${printed.factory.tx_hash} (nonce 0); waiting for it to be mined\n`);
    expect(stdout + stderr).not.toContain(deployer.privateKey.slice(2));
  });
});

/**
 * The deterministic deployment proxy's published one-time transaction (pre-EIP-155, so the same on
 * every chain; from 0x3fAB184622Dc19b6109349B94811493BF2a45362, 100,000 gas at 100 gwei), as
 * docs/real-chains.md gives it.
 */
const CREATE2_DEPLOYER_TRANSACTION =
  "0xf8a58085174876e800830186a08080b853604580600e600039806000f350fe7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf31ba02222222222222222222222222222222222222222222222222222222222222222a02222222222222222222222222222222222222222222222222222222222222222";

describe.each(NODE_KINDS)("platform deploy on a chain without the CREATE2 deployer (%s)", (kind) => {
  let anvil: AnvilNode;
  let chain: ChainProvider;
  const deployer = Wallet.createRandom();
  beforeAll(async () => {
    anvil = await startNode(kind, CHAIN);
    chain = createProvider(anvil.rpcUrl, CHAIN);
    await chain.send("hardhat_setCode", [CREATE2_DEPLOYER, "0x"]);
  });
  afterAll(async () => {
    chain?.destroy();
    await anvil?.stop();
  });

  it("says what to do, and sends nothing", async () => {
    await chain.send("hardhat_setBalance", [deployer.address, toQuantity(parseEther("1"))]);
    const err = await refusal(deploy({ SERVICE_ENV: "testnet", RPC_URL_97: anvil.rpcUrl, DEPLOYER_KEY: deployer.privateKey }));
    expect(err.reason).toBe("no_create2_deployer");
    expect(err.message).toBe(
      `chain 97 has no CREATE2 deployer at ${CREATE2_DEPLOYER}: deploy it with its published one-time transaction ` +
        `(github.com/Arachnid/deterministic-deployment-proxy; docs/real-chains.md, "No CREATE2 deployer") and run this again, ` +
        `or deploy DelegateFactory another way and set FACTORY_ADDRESS_97`,
    );
    expect(await chain.getTransactionCount(deployer.address)).toBe(0);
    expect(await chain.getCode(FACTORY)).toBe("0x");
  });

  it("deploys the factory at the same address once the proxy's one-time transaction is in, as docs/real-chains.md says", async () => {
    await chain.send("hardhat_setBalance", ["0x3fAB184622Dc19b6109349B94811493BF2a45362", toQuantity(parseEther("0.01"))]);
    await (await chain.broadcastTransaction(CREATE2_DEPLOYER_TRANSACTION)).wait();
    const { printed } = await deploy({ SERVICE_ENV: "testnet", RPC_URL_97: anvil.rpcUrl, DEPLOYER_KEY: deployer.privateKey });
    expect(printed.factory).toMatchObject({ address: FACTORY, status: "deployed" });
    expect((await chain.getCode(FACTORY)).toLowerCase()).toBe(factoryRuntimeCode().toLowerCase());
  });
});

describe("platform deploy refuses bad input before reaching a chain", () => {
  const key = Wallet.createRandom().privateKey;
  const url = "http://127.0.0.1:9"; // never reached
  it.each([
    ["a chain id that is no number", "abc", { DEPLOYER_KEY: key, RPC_URL_97: url }, /^--chain takes a chain id, got "abc"$/],
    ["a chain of no environment", "5", { DEPLOYER_KEY: key }, /^--chain 5 is not a chain of the testnet environment \(11155111, 97\): add it to ENV_CHAINS, as the services are configured$/],
    ["a chain ENV_CHAINS adds, without its node", "777001", { DEPLOYER_KEY: key, ENV_CHAINS: "97,777001" }, /^RPC_URL_777001 is required: /],
    ["a chain of the other environment", "56", { DEPLOYER_KEY: key, RPC_URL_56: url }, /^--chain 56 is a chain of the mainnet environment, and SERVICE_ENV is testnet: set SERVICE_ENV=mainnet to deploy there$/],
    ["no RPC URL", "97", { DEPLOYER_KEY: key }, /^RPC_URL_97 is required: /],
    ["an RPC URL that is not http", "97", { DEPLOYER_KEY: key, RPC_URL_97: "ftp://node.example/key" }, /RPC_URL_97: entry 1 \(ftp:\/\/node\.example\) must be http or https/],
    ["a malformed variable of the chain", "97", { DEPLOYER_KEY: key, RPC_URL_97: url, CONFIRMATIONS_97: "many" }, /CONFIRMATIONS_97 must be a whole number/],
    ["no key", "97", { RPC_URL_97: url }, /^DEPLOYER_KEY is required: /],
    ["a key too short", "97", { RPC_URL_97: url, DEPLOYER_KEY: key.slice(0, -1) }, /^DEPLOYER_KEY must be a private key: 32 bytes as 64 hex digits, 0x optional$/],
    ["a key that is no private key", "97", { RPC_URL_97: url, DEPLOYER_KEY: `0x${"f".repeat(64)}` }, /^DEPLOYER_KEY must be a private key/],
  ])("%s", async (_what, chain, variables, message) => {
    await expect(deploy({ SERVICE_ENV: "testnet", ...variables }, chain)).rejects.toThrow(message);
  });

  it("as a process: one line on stderr without the key, exit code 1; a missing --chain exits 2", async () => {
    const malformed = `0x${"deadbeef".repeat(7)}abcdef`;
    const failed = await runSweepctl(["platform", "deploy", "--chain", "97"], { SERVICE_ENV: "testnet", RPC_URL_97: url, DEPLOYER_KEY: malformed });
    expect(failed).toMatchObject({ code: 1, stdout: "" });
    expect(failed.stderr).toBe("sweepctl: DEPLOYER_KEY must be a private key: 32 bytes as 64 hex digits, 0x optional\n");

    const usage = await runSweepctl(["platform", "deploy"], { SERVICE_ENV: "testnet" });
    expect(usage.code).toBe(2);
    expect(usage.stderr.trim()).toBe("error: required option '--chain <chain-id>' not specified");
  });
});
