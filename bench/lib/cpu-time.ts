import { readdirSync, readFileSync } from "node:fs";

// CPU time used so far, read from Linux /proc (NaN elsewhere), in milliseconds. On a shared
// machine the CPU a request costs moves less with the neighbours' load than requests per
// second do, and it says which process the time went to.

/** User + system CPU time of one process (fields 14 and 15 of stat(5), ticks of 10 ms). */
export function cpuMsOf(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/**
 * Every PostgreSQL process of the machine together (their command name starts with
 * "postgres"): the server's backends for the bench, and whatever else the database serves at
 * the time, which a quiet machine keeps small.
 */
export function postgresCpuMs(): number {
  let total = 0;
  let seen = false;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/comm`, "utf8").startsWith("postgres")) continue;
    } catch {
      continue; // the process ended meanwhile
    }
    const ms = cpuMsOf(Number(entry));
    if (Number.isNaN(ms)) continue;
    total += ms;
    seen = true;
  }
  return seen ? total : Number.NaN;
}

/** This process's own CPU time (the load loops of a bench). */
export function ownCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}
