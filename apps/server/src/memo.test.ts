import { describe, expect, it } from "vitest";
import { ExpiringCache } from "./memo.ts";

describe("ExpiringCache", () => {
  it("keeps a value for its time to live, then forgets it", () => {
    const cache = new ExpiringCache<string, boolean>(1000, 10);
    cache.set("ana", true, 5000);
    expect(cache.get("ana", 5999)).toBe(true);
    expect(cache.get("ana", 6000)).toBeUndefined();
    expect(cache.get("ben", 5000)).toBeUndefined();
  });

  it("holds at most its limit, dropping the oldest first", () => {
    const cache = new ExpiringCache<number, number>(1000, 3);
    for (const key of [1, 2, 3]) cache.set(key, key * 10, 0);
    cache.set(1, 11, 0);
    cache.set(4, 40, 0);
    expect([1, 2, 3, 4].map((key) => cache.get(key, 0))).toEqual([11, undefined, 30, 40]);
    cache.clear();
    expect(cache.get(4, 0)).toBeUndefined();
  });
});
