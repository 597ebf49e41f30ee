// The one home of the server's process-wide memory: values worked out once and kept, each in a
// named Memo, so that no module keeps mutable state of its own. A Memo never forgets: it suits a
// small, fixed set of keys (SQL texts per shape, a file read once), not data from requests.
export class Memo<K, V> {
  private readonly values = new Map<K, V>();

  constructor(private readonly make: (key: K, size: number) => V) {}

  /** The value for `key`, made on first use. */
  get(key: K): V {
    if (this.values.has(key)) return this.values.get(key) as V;
    const value = this.make(key, this.values.size);
    this.values.set(key, value);
    return value;
  }

  /** The value for `key` if it was made, without making it. */
  peek(key: K): V | undefined {
    return this.values.get(key);
  }

  forget(key: K): void {
    this.values.delete(key);
  }
}

/** A value made once, on first use. */
export function once<V>(make: () => V): () => V {
  const memo = new Memo<null, V>(make);
  return () => memo.get(null);
}

/**
 * Values worked out from requests and kept for a while: each is trusted for `ttlMs` after it was
 * set, and past `limit` entries the oldest is dropped, so the memory it holds stays bounded.
 * Times come from the caller (a test moves them).
 */
export class ExpiringCache<K, V> {
  private readonly entries = new Map<K, { value: V; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly limit: number,
  ) {}

  /** The value set for `key` less than `ttlMs` before `now`, if any. */
  get(key: K, now: number): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until > now) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  set(key: K, value: V, now: number): void {
    this.entries.delete(key);
    if (this.entries.size >= this.limit) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, until: now + this.ttlMs });
  }

  forget(key: K): void {
    this.entries.delete(key);
  }

  /** Forgets every entry whose value matches (a scan: for changes rarer than reads). */
  forgetWhere(matches: (value: V) => boolean): void {
    for (const [key, entry] of this.entries) if (matches(entry.value)) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
