import { BlockList, isIPv4, isIPv6 } from "node:net";

/** IPv4 ranges that are not public: this network, RFC 1918, CGNAT, loopback, link-local, IETF, documentation, benchmarking, multicast, reserved and broadcast. */
const privateV4 = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) privateV4.addSubnet(network, prefix, "ipv4");

/** Inside global unicast (2000::/3), the IPv6 ranges that are not public: Teredo tunnels, documentation, benchmarking, ORCHID. */
const privateGlobalV6 = new BlockList();
for (const [network, prefix] of [
  ["2001::", 32],
  ["2001:db8::", 32],
  ["2001:2::", 48],
  ["2001:10::", 28],
  ["2001:20::", 28],
] as const) privateGlobalV6.addSubnet(network, prefix, "ipv6");

/**
 * Whether an address (as dns.lookup answers) is public. IPv6 is public only in global unicast
 * (2000::/3), which leaves out ::, ::1, fc00::/7, fe80::/10 and multicast; an IPv6 form that
 * carries an IPv4 address (mapped ::ffff:0:0/96, NAT64 64:ff9b::/96, 6to4 2002::/16) is as
 * public as that IPv4 address, so a private one cannot be reached through it.
 */
export function isPublicAddress(address: string): boolean {
  if (isIPv4(address)) return !privateV4.check(address, "ipv4");
  if (!isIPv6(address)) return false;
  const words = ipv6Words(address);
  const embedded = embeddedIPv4(words);
  if (embedded !== null) return !privateV4.check(embedded, "ipv4");
  if (words[0]! >> 13 !== 0b001) return false;
  return !privateGlobalV6.check(address, "ipv6");
}

/** The IPv4 address an IPv6 address carries by one of the translation forms, if it does. */
function embeddedIPv4(words: number[]): string | null {
  const v4 = (high: number, low: number) => [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
  const zeros = (from: number, to: number) => words.slice(from, to).every((w) => w === 0);
  if (zeros(0, 5) && words[5] === 0xffff) return v4(words[6]!, words[7]!);
  if (words[0] === 0x64 && words[1] === 0xff9b && zeros(2, 6)) return v4(words[6]!, words[7]!);
  if (words[0] === 0x2002) return v4(words[1]!, words[2]!);
  return null;
}

/** The eight 16-bit words of a valid IPv6 address, with a dotted IPv4 tail and a zone allowed. */
function ipv6Words(address: string): number[] {
  let text = address.split("%")[0]!;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::") as [string, string | undefined];
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((w) => parseInt(w, 16)));
  const first = parse(head);
  if (tail === undefined) return first;
  const last = parse(tail);
  return [...first, ...new Array<number>(8 - first.length - last.length).fill(0), ...last];
}

/**
 * Why a URL's host is refused before any DNS look-up, or null: a literal address that is not
 * public, or a name that always means this machine. `hostname` is as URL gives it: IPv4 in
 * dotted form, IPv6 in brackets. Names are left to the look-up at each delivery attempt.
 */
export function literalHostProblem(hostname: string): string | null {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost")) return "is this machine";
  const literal = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  if (isIPv4(literal) || isIPv6(literal)) return isPublicAddress(literal) ? null : "is not a public address";
  return null;
}
