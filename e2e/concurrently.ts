/**
 * Runs `work` on every item, `workers` at a time: each worker takes the next item left until
 * none is. Resolves once every item is done; rejects with the first failure.
 */
export async function eachConcurrently<T>(
  items: readonly T[],
  workers: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
}
