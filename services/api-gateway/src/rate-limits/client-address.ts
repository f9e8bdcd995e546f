import { isIPv4, isIPv6 } from "node:net";

/**
 * What the per-address limit counts a client under: an IPv4 address as it is (an IPv4-mapped IPv6
 * one too), an IPv6 address by its /64, since one host is routinely given a whole /64 and would
 * otherwise get a fresh limit per address it picks.
 */
export function clientAddressKey(remoteAddress: string | undefined): string {
  if (!remoteAddress) return "unknown";
  const address = remoteAddress.replace(/%.*$/, "");
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return address;
  return `${ipv6Groups(address).slice(0, 4).join(":")}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address, lower-case, without leading zeros. */
function ipv6Groups(address: string): string[] {
  // A trailing dotted quad (::ffff:1.2.3.4 is handled above; 64:ff9b::1.2.3.4 here) is two groups.
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  let text = address.toLowerCase();
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = text.slice(0, dotted.index) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::") as [string, string | undefined];
  const part = (s: string | undefined) => (s ? s.split(":") : []);
  const groups =
    tail === undefined ? part(head) : [...part(head), ...Array<string>(8 - part(head).length - part(tail).length).fill("0"), ...part(tail)];
  return groups.map((group) => parseInt(group, 16).toString(16));
}
