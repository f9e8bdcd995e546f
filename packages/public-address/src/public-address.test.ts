import { isPublicAddress, literalHostProblem } from "./public-address";

describe("public addresses", () => {
  it.each([
    "93.184.216.34",
    "8.8.8.8",
    "1.1.1.1",
    "100.63.255.255",
    "100.128.0.0",
    "172.15.255.255",
    "172.32.0.0",
    "2606:4700:4700::1111",
    "2a00:1450:4001:82a::200e",
    "::ffff:8.8.8.8",
    "::ffff:808:808",
    "64:ff9b::808:808",
    "2002:808:808::1",
  ])("%s is public", (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each([
    ["0.0.0.0", "this network"],
    ["0.1.2.3", "this network"],
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["10.0.0.1", "RFC 1918"],
    ["172.16.0.1", "RFC 1918"],
    ["172.31.255.255", "RFC 1918"],
    ["192.168.1.1", "RFC 1918"],
    ["169.254.169.254", "link-local (cloud metadata)"],
    ["100.64.0.1", "CGNAT"],
    ["100.127.255.255", "CGNAT"],
    ["192.0.0.8", "IETF protocol assignments"],
    ["192.0.2.1", "documentation"],
    ["198.18.0.1", "benchmarking"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["240.0.0.1", "reserved"],
    ["255.255.255.255", "broadcast"],
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["fc00::1", "unique local"],
    ["fd12:3456:789a::1", "unique local"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local with a zone"],
    ["ff02::1", "multicast"],
    ["2001:db8::1", "documentation"],
    ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
    ["::ffff:7f00:1", "IPv4-mapped loopback, hex"],
    ["::ffff:10.1.2.3", "IPv4-mapped RFC 1918"],
    ["::ffff:169.254.169.254", "IPv4-mapped metadata"],
    ["64:ff9b::7f00:1", "NAT64 loopback"],
    ["64:ff9b::a9fe:a9fe", "NAT64 metadata"],
    ["64:ff9b::192.168.0.1", "NAT64 RFC 1918, dotted"],
    ["2002:7f00:1::", "6to4 loopback"],
    ["::127.0.0.1", "IPv4-compatible (deprecated)"],
    ["localhost", "not an address"],
    ["", "not an address"],
  ])("%s is not public (%s)", (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
});

describe("isPublicAddress, more addresses", () => {
  it.each([
    ["a public IPv4 address", "93.184.216.34"],
    ["just below 10/8", "9.255.255.255"],
    ["just above 10/8", "11.0.0.0"],
    ["just below CGNAT", "100.63.255.255"],
    ["just above CGNAT", "100.128.0.0"],
    ["just below 172.16/12", "172.15.255.255"],
    ["just above 172.16/12", "172.32.0.0"],
    ["just below multicast", "223.255.255.255"],
    ["a public IPv6 address", "2606:2800:220:1:248:1893:25c8:1946"],
    ["a public IPv6 address in full form", "2a00:1450:4001:0830:0000:0000:0000:200e"],
    ["IPv4-mapped public address", "::ffff:93.184.216.34"],
    ["IPv4-mapped public address in hex", "::ffff:5db8:d822"],
    ["NAT64 of a public address", "64:ff9b::5db8:d822"],
    ["6to4 of a public address", "2002:5db8:d822::1"],
  ])("takes %s (%s) as public", (_what, address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each([
    ["this network", "0.0.0.0"],
    ["RFC 1918 10/8", "10.1.2.3"],
    ["RFC 1918 172.16/12", "172.16.0.1"],
    ["RFC 1918 172.16/12, top", "172.31.255.255"],
    ["RFC 1918 192.168/16", "192.168.1.1"],
    ["CGNAT", "100.64.0.1"],
    ["CGNAT, top", "100.127.255.255"],
    ["loopback", "127.0.0.1"],
    ["loopback elsewhere in 127/8", "127.8.9.10"],
    ["link-local", "169.254.1.1"],
    ["the cloud metadata address", "169.254.169.254"],
    ["IETF protocol assignments", "192.0.0.8"],
    ["documentation", "192.0.2.1"],
    ["benchmarking", "198.19.0.1"],
    ["multicast", "224.0.0.1"],
    ["reserved", "240.0.0.1"],
    ["broadcast", "255.255.255.255"],
    ["IPv6 loopback", "::1"],
    ["IPv6 unspecified", "::"],
    ["IPv6 unique-local", "fc00::1"],
    ["IPv6 unique-local fd", "fd12:3456:789a::1"],
    ["IPv6 link-local", "fe80::1"],
    ["IPv6 link-local, top of the range", "febf::1"],
    ["IPv6 multicast", "ff02::1"],
    ["IPv6 documentation", "2001:db8::1"],
    ["Teredo", "2001:0:4136:e378:8000:63bf:3fff:fdd2"],
    ["IPv4-mapped loopback", "::ffff:127.0.0.1"],
    ["IPv4-mapped loopback in hex", "::ffff:7f00:1"],
    ["IPv4-mapped metadata address", "::ffff:169.254.169.254"],
    ["IPv4-mapped RFC 1918", "::ffff:10.0.0.1"],
    ["IPv4-compatible (deprecated) loopback", "::127.0.0.1"],
    ["NAT64 of loopback", "64:ff9b::127.0.0.1"],
    ["NAT64 of the metadata address", "64:ff9b::a9fe:a9fe"],
    ["NAT64 local-use prefix", "64:ff9b:1::1"],
    ["6to4 of RFC 1918", "2002:c0a8:0101::1"],
    ["a zone-scoped address", "fe80::1%eth0"],
    ["a name", "example.com"],
    ["an empty string", ""],
    ["an IPv4 address in brackets", "[127.0.0.1]"],
  ])("refuses %s (%s)", (_what, address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
});

describe("literalHostProblem", () => {
  it.each([
    ["a name", "example.com"],
    ["a name ending in localhost but not under it", "notlocalhost.com"],
    ["a public IPv4 address", "93.184.216.34"],
    ["a public IPv6 address in brackets", "[2606:2800:220:1:248:1893:25c8:1946]"],
  ])("passes %s (%s): names are for the dispatcher to resolve", (_what, host) => {
    expect(literalHostProblem(host)).toBeNull();
  });

  it.each([
    ["localhost", "localhost", "is this machine"],
    ["localhost in capitals with a final dot", "LOCALHOST.", "is this machine"],
    ["a name under localhost", "api.localhost", "is this machine"],
    ["a loopback address", "127.0.0.1", "is not a public address"],
    ["the metadata address", "169.254.169.254", "is not a public address"],
    ["IPv6 loopback in brackets", "[::1]", "is not a public address"],
    ["IPv4-mapped loopback in brackets", "[::ffff:7f00:1]", "is not a public address"],
  ])("refuses %s (%s)", (_what, host, problem) => {
    expect(literalHostProblem(host)).toBe(problem);
  });
});
