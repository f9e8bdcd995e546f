import { isIP } from "node:net";
import type { AttemptError } from "./attempt-errors";
import { attemptErrorOf } from "./attempt-errors";
import { isPublicAddress } from "@sweep/public-address";

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** dns.promises.lookup with `all: true`: every address of the host. */
export type LookupAll = (hostname: string) => Promise<ResolvedAddress[]>;

/** Where an attempt connects: the host as named in the URL (for TLS), and the address it was checked at. */
export interface Destination {
  /** https, or http where private addresses are allowed (local development) */
  protocol: "https:" | "http:";
  hostname: string;
  port: number;
  path: string;
  /** the address checked; the connection goes there and nowhere else */
  address: ResolvedAddress;
}

/**
 * Resolves the webhook's host for one attempt and checks every address it resolves to: one
 * non-public address refuses the attempt (unless private addresses are allowed, for local
 * development), since which of them a connection would take is not ours to choose. Only https is
 * delivered to, and http too where plain http is allowed (local development, apart from private hosts).
 */
export async function resolveDestination(url: string, lookup: LookupAll, reach: { allowPrivate: boolean; allowHttp: boolean }): Promise<Destination | { error: AttemptError }> {
  const { allowPrivate, allowHttp } = reach;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { error: "connection failed" };
  }
  const protocol = parsed.protocol === "https:" ? "https:" : allowHttp && parsed.protocol === "http:" ? "http:" : null;
  if (protocol === null) return { error: "connection failed" };
  // An IPv6 host comes bracketed.
  const hostname = parsed.hostname.replace(/^\[(.*)\]$/, "$1");
  let addresses: ResolvedAddress[];
  try {
    addresses = isIP(hostname) ? [{ address: hostname, family: isIP(hostname) }] : await lookup(hostname);
  } catch (err) {
    return { error: attemptErrorOf(err) };
  }
  if (addresses.length === 0) return { error: "DNS lookup failed" };
  if (!allowPrivate && !addresses.every((a) => isPublicAddress(a.address))) return { error: "private address refused" };
  const port = parsed.port !== "" ? Number(parsed.port) : protocol === "https:" ? 443 : 80;
  return { protocol, hostname, port, path: `${parsed.pathname}${parsed.search}`, address: addresses[0]! };
}
