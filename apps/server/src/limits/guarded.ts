import { limited } from "../domain-errors.ts";
import type { Services } from "../services.ts";
import type { HitOptions } from "./attempts.ts";

export const hour = 60 * 60 * 1000;

/** One counter a guess is held against: at most `max` within the options' window. */
export interface Hold {
  key: string;
  max: number;
  options: HitOptions;
}

/**
 * Guesses (passwords, join codes): every hold is counted before the work, in one atomic step
 * each, so parallel guesses cannot all slip under a limit; over any of them the answer is 429
 * with the longest wait. The attempts are taken back unless the work failed with an error that
 * `isGuess` says was a wrong guess.
 */
export async function guarded<T>(
  services: Services,
  holds: readonly Hold[],
  isGuess: (error: unknown) => boolean,
  work: () => Promise<T>,
): Promise<T> {
  const hits = await Promise.all(holds.map((h) => services.attempts.hit(h.key, h.options)));
  const over = hits.filter((hit, i) => hit.count > (holds[i]?.max ?? 0));
  if (over.length > 0) throw limited(Math.max(...over.map((hit) => hit.ttlMs)));
  const takeBack = () => Promise.all(holds.map((h) => services.attempts.undo(h.key)));
  try {
    const result = await work();
    await takeBack();
    return result;
  } catch (error) {
    if (!isGuess(error)) await takeBack();
    throw error;
  }
}
