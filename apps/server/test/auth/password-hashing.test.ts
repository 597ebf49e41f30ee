import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import { beforeAll, describe, expect, it } from "vitest";
import {
  argon2,
  hashConcurrency,
  hashLoad,
  hashPassword,
  pooled,
  verifyPassword,
} from "../../src/auth/passwords.ts";

// The real argon2id parameters on the server's own hashing threads: the other API tests hash
// with cheap ones on the test's thread (setup/cheap-hashes.ts).
beforeAll(() => {
  Object.assign(argon2, pooled);
});

/** The nice value of each thread of this process (Linux: field 19 of /proc/self/task/N/stat). */
function threadNiceness(): number[] {
  return readdirSync("/proc/self/task").map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
  });
}

describe("password hashing", () => {
  it("uses argon2id m=19456 KiB t=2 p=1, verifies, and runs one hash per core at once", async () => {
    expect(hashConcurrency).toBe(os.availableParallelism());
    const burst = Array.from({ length: hashConcurrency + 3 }, (_, i) => hashPassword(`burst ${i}`));
    expect(hashLoad()).toEqual({ running: hashConcurrency, waiting: 3 });
    const hashes = await Promise.all(burst);
    expect(hashLoad()).toEqual({ running: 0, waiting: 0 });
    expect(hashes[0]).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(hashes[0] ?? "", "burst 0")).toBe(true);
    expect(await verifyPassword(hashes[0] ?? "", "burst 1")).toBe(false);
    expect(await verifyPassword("not a hash", "burst 0")).toBe(false);
  });

  it.runIf(process.platform === "linux")(
    "hashes on threads of a lower priority than the event loop (nice +10)",
    async () => {
      const before = threadNiceness();
      await hashPassword("a priority check");
      const after = threadNiceness();
      // The main thread keeps its priority; the pool's threads (kept for a minute) are at +10,
      // or at 19, the lowest there is, when the tests themselves run under `nice`.
      expect(after[0]).toBe(before[0]);
      const pool = Math.min(19, (before[0] ?? 0) + 10);
      expect(after.filter((n) => n === pool).length).toBeGreaterThanOrEqual(1);
    },
  );
});
