/** Small statistics of the benchmarks: percentiles of raw samples (no bucketing) and timing. */

/** Nearest-rank percentile of unsorted samples (p in 0..100). */
export function percentile(samples: ArrayLike<number>, p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = Float64Array.from(samples).sort();
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export const median = (samples: ArrayLike<number>): number => percentile(samples, 50);

/** Milliseconds taken by an async call. */
export async function timeMs(fn: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** Deterministic pseudo-random numbers (mulberry32, shared with the test fixtures), so every run asks the same questions. */
export { prng as seededRandom } from '../../test/support/fixtures.js';

export function pick<T>(items: readonly T[], random: () => number): T {
  return items[Math.floor(random() * items.length)];
}
