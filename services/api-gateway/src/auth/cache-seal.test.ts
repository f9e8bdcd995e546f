import { CacheSeal, DEVELOPMENT_CACHE_SECRET, resolveCacheSecret } from "./cache-seal";

describe("CacheSeal", () => {
  const seal = new CacheSeal("a".repeat(32));
  const sealed = seal.seal("apikey:ab", '{"found":false,"hash":"ab"}');

  it("opens what it sealed", () => {
    expect(seal.open("apikey:ab", sealed)).toBe('{"found":false,"hash":"ab"}');
  });

  it.each([
    ["no mac", '{"found":true}'],
    ["another body", sealed.replace("false", "true ")],
    ["an empty mac", `.${sealed.split(".").slice(1).join(".")}`],
    ["a mac cut short", sealed.slice(0, 10) + sealed.slice(sealed.indexOf("."))],
    ["a mac of another secret", new CacheSeal("b".repeat(32)).seal("apikey:ab", '{"found":false,"hash":"ab"}')],
  ])("refuses %s", (_what, value) => {
    expect(seal.open("apikey:ab", value)).toBeNull();
  });

  it("refuses an entry moved to another key's slot", () => {
    expect(seal.open("apikey:cd", sealed)).toBeNull();
  });
});

describe("resolveCacheSecret", () => {
  it.each([
    ["testnet", "s".repeat(32), "s".repeat(32), false],
    ["mainnet", "s".repeat(32), "s".repeat(32), false],
    ["testnet", undefined, DEVELOPMENT_CACHE_SECRET, true],
  ] as const)("on %s with %s: the secret, warned %s", (environment, secret, expected, warned) => {
    const warn = jest.fn();
    expect(resolveCacheSecret({ SERVICE_ENV: environment, API_KEY_CACHE_SECRET: secret }, warn)).toBe(expected);
    expect(warn).toHaveBeenCalledTimes(warned ? 1 : 0);
  });

  it("stops mainnet without a secret", () => {
    expect(() => resolveCacheSecret({ SERVICE_ENV: "mainnet" }, jest.fn())).toThrow("API_KEY_CACHE_SECRET is required on the mainnet environment");
  });
});
