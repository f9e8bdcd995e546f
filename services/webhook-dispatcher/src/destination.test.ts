import { resolveDestination, type LookupAll, type ResolvedAddress } from "./destination";

const v4 = (address: string): ResolvedAddress => ({ address, family: 4 });
const v6 = (address: string): ResolvedAddress => ({ address, family: 6 });
const answers = (records: ResolvedAddress[]): LookupAll => async () => records;
const failing = (code: string): LookupAll => async () => {
  throw Object.assign(new Error(`getaddrinfo ${code}`), { code });
};

const production = { allowPrivate: false, allowHttp: false };
const local = { allowPrivate: true, allowHttp: true };

describe("the destination of an attempt", () => {
  it.each([
    ["a public A record", "https://hooks.example.com/in", answers([v4("93.184.216.34")]), v4("93.184.216.34")],
    ["public A and AAAA records, the first taken", "https://hooks.example.com/in", answers([v6("2606:4700::6810:84e5"), v4("104.16.132.229")]), v6("2606:4700::6810:84e5")],
    ["a public IPv4 literal, not looked up", "https://93.184.216.34/in", failing("ENOTFOUND"), v4("93.184.216.34")],
    ["a public IPv6 literal, not looked up", "https://[2606:4700::6810:84e5]/in", failing("ENOTFOUND"), v6("2606:4700::6810:84e5")],
  ])("%s", async (_what, url, lookup, address) => {
    expect(await resolveDestination(url, lookup, production)).toMatchObject({ address });
  });

  it("keeps the host for TLS, the port and the path with its query", async () => {
    expect(await resolveDestination("https://hooks.example.com:8443/in/put?k=1", answers([v4("93.184.216.34")]), production)).toEqual({
      protocol: "https:",
      hostname: "hooks.example.com",
      port: 8443,
      path: "/in/put?k=1",
      address: v4("93.184.216.34"),
    });
  });

  it.each([
    ["a loopback A record", "https://hooks.example.com/", answers([v4("127.0.0.1")]), "private address refused"],
    ["one private record among public ones", "https://hooks.example.com/", answers([v4("93.184.216.34"), v4("10.0.0.5")]), "private address refused"],
    ["the metadata address", "https://metadata.example.com/", answers([v4("169.254.169.254")]), "private address refused"],
    ["a CGNAT record", "https://hooks.example.com/", answers([v4("100.64.1.1")]), "private address refused"],
    ["an IPv6 loopback record", "https://hooks.example.com/", answers([v6("::1")]), "private address refused"],
    ["an IPv4-mapped private record", "https://hooks.example.com/", answers([v6("::ffff:192.168.0.1")]), "private address refused"],
    ["a NAT64 form of loopback", "https://hooks.example.com/", answers([v6("64:ff9b::7f00:1")]), "private address refused"],
    ["a loopback literal", "https://127.0.0.1:8443/", failing("ENOTFOUND"), "private address refused"],
    ["a bracketed IPv6 loopback literal", "https://[::1]/", failing("ENOTFOUND"), "private address refused"],
    ["localhost", "https://localhost/", answers([v4("127.0.0.1"), v6("::1")]), "private address refused"],
    ["an unknown host", "https://nowhere.invalid/", failing("ENOTFOUND"), "DNS lookup failed"],
    ["a failing resolver", "https://hooks.example.com/", failing("EAI_AGAIN"), "DNS lookup failed"],
    ["no address at all", "https://hooks.example.com/", answers([]), "DNS lookup failed"],
    ["plain http", "http://hooks.example.com/", answers([v4("93.184.216.34")]), "connection failed"],
    ["not a URL", "hooks.example.com", answers([v4("93.184.216.34")]), "connection failed"],
  ])("%s → %s", async (_what, url, lookup, error) => {
    expect(await resolveDestination(url, lookup, production)).toEqual({ error });
  });

  it("delivers to private addresses when they are allowed (local development)", async () => {
    const privateOnly = { allowPrivate: true, allowHttp: false };
    expect(await resolveDestination("https://127.0.0.1:8443/", failing("ENOTFOUND"), privateOnly)).toMatchObject({ address: v4("127.0.0.1"), port: 8443 });
    expect(await resolveDestination("https://hooks.local/", answers([v4("192.168.1.20")]), privateOnly)).toMatchObject({ address: v4("192.168.1.20") });
  });

  it.each<[string, string, { allowPrivate: boolean; allowHttp: boolean }, object]>([
    ["https, its default port", "https://hooks.example.com/in", production, { protocol: "https:", port: 443 }],
    ["https, as ever", "https://hooks.example.com/in", local, { protocol: "https:", port: 443 }],
    ["http, refused in production", "http://hooks.example.com/in", production, { error: "connection failed" }],
    ["http, refused with private hosts allowed but not http", "http://127.0.0.1:3000/", { allowPrivate: true, allowHttp: false }, { error: "connection failed" }],
    ["http to a public host with http allowed but not private hosts", "http://hooks.example.com/in", { allowPrivate: false, allowHttp: true }, { protocol: "http:", port: 80 }],
    ["http to a loopback literal with http allowed but not private hosts", "http://127.0.0.1:3000/", { allowPrivate: false, allowHttp: true }, { error: "private address refused" }],
    ["http on a port", "http://host.docker.internal:3000/in?k=1", local, { protocol: "http:", hostname: "host.docker.internal", port: 3000, path: "/in?k=1" }],
    ["http to a loopback literal", "http://127.0.0.1:3000/", local, { protocol: "http:", address: v4("127.0.0.1"), port: 3000 }],
    ["another scheme, refused still", "ftp://hooks.example.com/", local, { error: "connection failed" }],
  ])("%s: %s, %j", async (_what, url, reach, expected) => {
    expect(await resolveDestination(url, answers([v4("93.184.216.34")]), reach)).toMatchObject(expected);
  });
});
