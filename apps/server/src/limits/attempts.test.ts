import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { type AttemptCounter, memoryAttempts, redisAttempts } from "./attempts.ts";

// The counters behind the sign-in and reset limits: each hit is counted and read in one step,
// so parallel hits see 1, 2, 3, ... and never the same number twice; undo takes one back.
const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const redis = new Redis(redisUrl, {
  lazyConnect: true,
  maxRetriesPerRequest: 0,
  retryStrategy: () => null,
});
redis.on("error", () => {});
const haveRedis = await redis.connect().then(
  () => true,
  () => false,
);
const prefix = `gradecast-test-${randomBytes(4).toString("hex")}:`;

afterAll(async () => {
  if (!haveRedis) return;
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

const counters: [string, () => AttemptCounter][] = [
  ["memory", () => memoryAttempts()],
  ...(haveRedis
    ? [["redis", () => redisAttempts(redis, prefix)] as [string, () => AttemptCounter]]
    : []),
];

describe.each(counters)("attempt counter (%s)", (name, make) => {
  it("counts 50 parallel hits as 1 to 50, and undo takes one back", async () => {
    const counter = make();
    const hits = await Promise.all(
      Array.from({ length: 50 }, () => counter.hit("k", { windowMs: 60_000 })),
    );
    expect(hits.map((h) => h.count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
    await counter.undo("k");
    expect((await counter.hit("k", { windowMs: 60_000 })).count).toBe(50);
    if (name === "redis") {
      // The deployment's prefix leads the key (no "undefinedundefined-"). Other tests of this
      // file may have keys of their own under the prefix by now, in a shuffled run.
      expect(await redis.keys(`${prefix}*`)).toContain(`${prefix}attempts:k`);
      expect(await redis.keys("*attempts:k")).not.toContain("attempts:k");
    }
  });

  it("doubles the window past the limit, up to the most it may be", async () => {
    const counter = make();
    const options = { windowMs: 1000, backoffAfter: 2, maxWindowMs: 5000 };
    const ttls: number[] = [];
    for (let i = 0; i < 6; i++) ttls.push((await counter.hit("b", options)).ttlMs);
    expect(ttls[0]).toBeLessThanOrEqual(1000);
    expect(ttls[2]).toBeGreaterThan(1000);
    expect(ttls[3]).toBeGreaterThan(ttls[2]! - 50);
    expect(ttls[5]).toBeLessThanOrEqual(5000);
    expect(ttls[5]).toBeGreaterThan(4000);
  });
});

describe("memory counter windows", () => {
  it("starts again once its window has passed", async () => {
    let now = 0;
    const counter = memoryAttempts(() => now);
    await counter.hit("w", { windowMs: 1000 });
    await counter.hit("w", { windowMs: 1000 });
    now = 1001;
    expect((await counter.hit("w", { windowMs: 1000 })).count).toBe(1);
  });
});
