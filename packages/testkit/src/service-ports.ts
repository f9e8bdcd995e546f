import { readFileSync } from "node:fs";
import { randomInt } from "node:crypto";

/** The ports the system hands out by itself: to `listen(0)` and to every outgoing connection's own end. */
export interface PortRange {
  low: number;
  high: number;
}

const LINUX_EPHEMERAL: PortRange = { low: 32768, high: 60999 };
/** Below the registered ports our parts listen on (Postgres 5432, RabbitMQ 5672, Redis 6379, the nodes' 8545). */
const LOWEST_SERVICE_PORT = 20000;

/** The system's ephemeral range (Linux: /proc/sys/net/ipv4/ip_local_port_range), Linux's default where it cannot be read. */
export function ephemeralRange(): PortRange {
  try {
    return parsePortRange(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8")) ?? LINUX_EPHEMERAL;
  } catch {
    return LINUX_EPHEMERAL;
  }
}

export function parsePortRange(text: string): PortRange | undefined {
  const fields = text.trim().split(/\s+/).map(Number);
  if (fields.length !== 2) return undefined;
  const [low, high] = fields as [number, number];
  return Number.isInteger(low) && Number.isInteger(high) && low > 0 && low <= high && high < 65536 ? { low, high } : undefined;
}

/**
 * A port for a test's service, outside the ephemeral range. A service restarted on the port it had (its clients
 * call it there) must find it free: in the ephemeral range, any connection opened meanwhile (to Postgres, to a node)
 * may have taken it as its own end. Outside it, only another service picking the same port by chance could.
 * Undefined where the system leaves no room below its range: the caller then asks for port 0.
 */
export function servicePort(range: PortRange, pick: (low: number, highExclusive: number) => number = randomInt): number | undefined {
  if (range.low <= LOWEST_SERVICE_PORT + 1) return undefined;
  return pick(LOWEST_SERVICE_PORT, range.low);
}
