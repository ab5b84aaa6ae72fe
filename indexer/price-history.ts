/**
 * Price readings (docs/indexer.md, docs/api.md price_history): tracking began on 2026-06-23, so
 * no reading is older; a new reading is recorded when the collected price differs from the last
 * reading by at least 1 % and the last reading is at least one hour old (one reading per hour).
 */
import type { PricePoint } from '../src/core/model/annonce.js';

export const TRACKING_START = Date.parse('2026-06-23T00:00:00Z');
export const MIN_READING_INTERVAL_MS = 3_600_000;
export const MIN_RELATIVE_CHANGE = 0.01;

/** Returns the series after a collection pass (the same array when nothing is recorded). */
export function applyPriceReading(points: readonly PricePoint[], price: number | null, collectedAt: number): readonly PricePoint[] {
  if (price === null || price <= 0 || collectedAt < TRACKING_START) return points;
  const at = new Date(collectedAt).toISOString();
  const last = points.at(-1);
  if (!last) return [{ at, price }];
  const lastAt = Date.parse(last.at);
  if (collectedAt - lastAt < MIN_READING_INTERVAL_MS) return points;
  if (Math.abs(price - last.price) / last.price < MIN_RELATIVE_CHANGE) return points;
  return [...points, { at, price }];
}
