import type { Redis } from "ioredis";

// Counters of guesses (failed sign-ins, reset emails), in memory or in Redis when several
// instances share one. A caller adds its attempt first and reads the count in the same atomic
// step, so 50 parallel guesses can never all see "under the limit" before any is counted; an
// attempt that turns out not to count (a right password) is taken back with `undo`.
// @fastify/rate-limit reads before it counts when asked for a separate check, and names the keys
// of such checks "undefinedundefined-…", hence these few lines of our own.

export interface Hit {
  /** Attempts in the window, this one included. */
  count: number;
  /** Milliseconds until the window ends. */
  ttlMs: number;
}

export interface HitOptions {
  windowMs: number;
  /**
   * Past this many attempts, each further one doubles the window (up to `maxWindowMs`): a
   * guesser who keeps going waits longer and longer.
   */
  backoffAfter?: number;
  maxWindowMs?: number;
}

export interface AttemptCounter {
  hit(key: string, options: HitOptions): Promise<Hit>;
  undo(key: string): Promise<void>;
}

function backoffWindow(count: number, options: HitOptions): number | undefined {
  if (options.backoffAfter === undefined || count <= options.backoffAfter) return undefined;
  const doubled = options.windowMs * 2 ** (count - options.backoffAfter);
  return Math.min(doubled, options.maxWindowMs ?? doubled);
}

export function memoryAttempts(now: () => number = Date.now): AttemptCounter {
  const entries = new Map<string, { count: number; endsAt: number }>();
  let sweepAt = 0;
  const sweep = (t: number) => {
    if (t < sweepAt) return;
    sweepAt = t + 60_000;
    for (const [key, entry] of entries) if (entry.endsAt <= t) entries.delete(key);
  };
  return {
    async hit(key, options) {
      const t = now();
      sweep(t);
      let entry = entries.get(key);
      if (!entry || entry.endsAt <= t) {
        entry = { count: 0, endsAt: t + options.windowMs };
        entries.set(key, entry);
      }
      entry.count += 1;
      const longer = backoffWindow(entry.count, options);
      if (longer !== undefined) entry.endsAt = t + longer;
      return { count: entry.count, ttlMs: entry.endsAt - t };
    },
    async undo(key) {
      const entry = entries.get(key);
      if (entry && entry.count > 0) entry.count -= 1;
    },
  };
}

// One round trip: count, set or stretch the expiry, answer the count and what is left.
const hitScript = `
local count = redis.call('INCR', KEYS[1])
local window = tonumber(ARGV[1])
local after = tonumber(ARGV[2])
local maxWindow = tonumber(ARGV[3])
if count == 1 then
  redis.call('PEXPIRE', KEYS[1], window)
elseif after >= 0 and count > after then
  redis.call('PEXPIRE', KEYS[1], math.min(window * (2 ^ (count - after)), maxWindow))
end
return {count, redis.call('PTTL', KEYS[1])}
`;
const undoScript = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then redis.call('DECR', KEYS[1]) end
return 0
`;

export function redisAttempts(redis: Redis, prefix: string): AttemptCounter {
  return {
    async hit(key, options) {
      const [count, ttl] = (await redis.eval(
        hitScript,
        1,
        `${prefix}attempts:${key}`,
        options.windowMs,
        options.backoffAfter ?? -1,
        options.maxWindowMs ?? Number.MAX_SAFE_INTEGER,
      )) as [number, number];
      return { count, ttlMs: Math.max(0, ttl) };
    },
    async undo(key) {
      await redis.eval(undoScript, 1, `${prefix}attempts:${key}`);
    },
  };
}
