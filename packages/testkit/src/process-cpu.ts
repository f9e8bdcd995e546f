import { readFileSync, readdirSync } from "node:fs";

/** Linux's clock ticks a second (USER_HZ), the unit of /proc's CPU times. */
const TICKS_PER_SECOND = 100;

/**
 * CPU seconds (user and system) a process and its children (a gateway's cluster workers) have used
 * so far, read from /proc: a bench's measure of a process's work per request, which other load on
 * the machine moves much less than it moves throughput or latency. Linux only.
 */
export function processTreeCpuSeconds(pid: number): number {
  return processTree(pid).reduce((sum, id) => sum + cpuSecondsOf(id), 0);
}

/**
 * CPU seconds of the local Postgres server so far: its postmaster's own and its reaped children's
 * (backends that ended), and every live child's. Backends come and go with the clients' pools, so a
 * sum over the live ones alone would drop what an ended one spent. Every database's work counts:
 * measure on a machine where the bench is Postgres's only client.
 */
export function postgresCpuSeconds(): number {
  const postmaster = readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .find((pid) => /^\S*\/postgres\b/.test(readOr(`/proc/${pid}/cmdline`).replace(/\0/g, " ")) && !readOr(`/proc/${parentOf(pid)}/cmdline`).includes("postgres"));
  if (postmaster === undefined) return 0;
  const [, , reapedUser, reapedSystem] = statTimes(postmaster);
  return processTreeCpuSeconds(postmaster) + ((reapedUser ?? 0) + (reapedSystem ?? 0)) / TICKS_PER_SECOND;
}

function processTree(root: number): number[] {
  const all = [root];
  for (let i = 0; i < all.length; i++) {
    for (const task of readdirOr(`/proc/${all[i]}/task`)) {
      const children = readOr(`/proc/${all[i]}/task/${task}/children`).trim();
      if (children) all.push(...children.split(" ").map(Number));
    }
  }
  return all;
}

function cpuSecondsOf(pid: number): number {
  const [user, system] = statTimes(pid);
  return ((user ?? 0) + (system ?? 0)) / TICKS_PER_SECOND;
}

/** utime, stime, cutime and cstime (ticks): the 12th to 15th fields after the command's closing parenthesis. */
function statTimes(pid: number): number[] {
  return (readOr(`/proc/${pid}/stat`).split(") ")[1]?.split(" ") ?? []).slice(11, 15).map(Number);
}

function parentOf(pid: number): number {
  return Number(readOr(`/proc/${pid}/stat`).split(") ")[1]?.split(" ")[1]);
}

/** A process may end between listing and reading: it then counts nothing. */
function readOr(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

function readdirOr(path: string): string[] {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
}
