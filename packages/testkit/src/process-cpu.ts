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

/** CPU seconds of every Postgres backend serving `database` now (their command line names it). */
export function postgresCpuSeconds(database: string): number {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => readOr(`/proc/${pid}/cmdline`).replace(/\0/g, " ").includes(`postgres ${database} `))
    .reduce((sum, pid) => sum + cpuSecondsOf(Number(pid)), 0);
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
  // The fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
  const fields = readOr(`/proc/${pid}/stat`).split(") ")[1]?.split(" ");
  return fields ? (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND : 0;
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
