import { Wallet } from "ethers";
import { loadChainConfigs } from "@sweep/chains";
import { checksumAddress, gatewayChains, resolveToken } from "./chains";

const USDT = "0xdAC17F958D2ee523a2206206994597C13D831ec7";
const chain = { nativeTicker: "tBNB", tokens: [{ ticker: "USDT", decimals: 18, address: USDT, feeOnTransfer: false }] };

describe("resolveToken", () => {
  it.each([
    ["USDT", { ticker: "USDT", address: USDT }],
    ["usdt", { ticker: "USDT", address: USDT }],
    [USDT.toLowerCase(), { ticker: "USDT", address: USDT }],
    [USDT.toUpperCase().replace("0X", "0x"), { ticker: "USDT", address: USDT }],
    ["native", { ticker: "tBNB", address: null }],
    ["NATIVE", { ticker: "tBNB", address: null }],
    ["tbnb", { ticker: "tBNB", address: null }],
    ["TBNB", { ticker: "tBNB", address: null }],
    ["ETH", null],
    ["", null],
    ["0x0000000000000000000000000000000000000000", null],
  ])("resolves %j", (token, expected) => {
    expect(resolveToken(chain, token)).toEqual(expected);
  });
});

describe("the gateway's chains", () => {
  it("are the environment's, with EIP-55 token addresses and the factory (overridable per chain)", () => {
    const factory = "0x1111111111111111111111111111111111111111";
    const chains = gatewayChains(loadChainConfigs("testnet", undefined, { FACTORY_ADDRESS_97: factory, TOKEN_97_USDT: USDT.toLowerCase() }));
    expect(chains.map((c) => [c.chainId, c.nativeTicker])).toEqual([
      [11155111, "ETH"],
      [97, "tBNB"],
    ]);
    expect(chains[1]).toMatchObject({ factory, tokens: [{ ticker: "USDT", address: USDT }] });
    const mainnet = Object.fromEntries(
      [1, 56].flatMap((id) => [
        [`CLASSIC_GAS_${id}_USDT`, "60000,60000"],
        [`MAX_FEE_PER_GAS_${id}`, "50000000000"],
        [`MAX_PRIORITY_FEE_PER_GAS_${id}`, "2000000000"],
      ]),
    );
    expect(gatewayChains(loadChainConfigs("mainnet", undefined, { RPC_URL_1: "https://eth.example", RPC_URL_56: "https://bsc.example", ...mainnet })).map((c) => c.chainId)).toEqual([1, 56]);
  });

  it("carry their names and the configured tariff, rates overridable per chain", () => {
    const [sepolia, bsc] = gatewayChains(loadChainConfigs("testnet", undefined, { RATE_BPS_97: "5000", NATIVE_MARKUP_BPS_97: "0" }));
    expect(sepolia).toMatchObject({ name: "Sepolia", tariff: { chainId: 11155111, rateBps: 7000, nativeMarkupBps: 1000 } });
    expect(bsc).toMatchObject({ name: "BSC Testnet", tariff: { chainId: 97, rateBps: 5000, nativeMarkupBps: 0 } });
    expect(Object.keys(bsc!.tariff.classicGas ?? {}).sort()).toEqual(["USDT", "tBNB"]);
  });

  it("checksums an address given in any case", () => {
    expect(checksumAddress(USDT.toLowerCase())).toBe(USDT);
    expect(checksumAddress("0xDAC17F958D2EE523A2206206994597C13D831EC7")).toBe(USDT);
  });

  it("answers a kept address in any case as the first time, and still refuses what is no address", () => {
    const address = Wallet.createRandom().address;
    for (const asked of [address.toLowerCase(), address, address.toLowerCase(), address.toUpperCase().replace("0X", "0x")]) expect(checksumAddress(asked)).toBe(address);
    expect(() => checksumAddress(`${address.toLowerCase()}00`)).toThrow();
    expect(() => checksumAddress(`${address.toLowerCase()}00`)).toThrow();
  });
});
