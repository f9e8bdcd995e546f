import { endpointLabels, parseRpcUrls, redactRpcUrl } from "./rpc-url";

describe("redacting RPC URLs", () => {
  it.each([
    ["a hosted provider's key in the path", "https://sepolia.infura.io/v3/0123456789abcdef", "https://sepolia.infura.io"],
    ["a key in the query", "https://rpc.example.com/?apikey=secret", "https://rpc.example.com"],
    ["credentials before the host", "https://user:pass@node.example.com:8545/x", "https://node.example.com:8545"],
    ["a local node", "http://127.0.0.1:8545", "http://127.0.0.1:8545"],
    ["no URL at all", "not a url", "(malformed URL)"],
  ])("%s", (_name, url, redacted) => {
    expect(redactRpcUrl(url)).toBe(redacted);
  });
});

describe("RPC_URL_<chain_id>", () => {
  it.each([
    ["one URL", "http://127.0.0.1:8545", ["http://127.0.0.1:8545"]],
    ["several, with spaces", "https://a.example/k1, https://b.example/k2", ["https://a.example/k1", "https://b.example/k2"]],
  ])("takes %s", (_name, value, urls) => {
    expect(parseRpcUrls("RPC_URL_97", value)).toEqual(urls);
  });

  it.each([
    ["an empty list", ",", /^RPC_URL_97 must name at least one http\(s\) URL$/],
    ["something that is no URL", "https://a.example,nope", /^RPC_URL_97: entry 2 is not a URL$/],
    ["a websocket, without its key", "wss://a.example/secret", /^RPC_URL_97: entry 1 \(wss:\/\/a\.example\) must be http or https$/],
    ["the same URL twice", "http://a.example,http://a.example", /names the same URL twice/],
  ])("refuses %s, naming the variable", (_name, value, message) => {
    expect(() => parseRpcUrls("RPC_URL_97", value)).toThrow(message);
  });
});

describe("endpoint labels", () => {
  it("are hosts, numbered only where a host repeats", () => {
    expect(endpointLabels(["https://a.example/k1", "https://b.example", "https://a.example/k2"])).toEqual(["a.example#1", "b.example", "a.example#2"]);
  });
});
