/**
 * The indexer's memory against its input: whether the peak RSS grows with the listings written
 * (the target says it must not: "flat"). During a load the benchmark samples the child's resident
 * memory (VmHWM and VmRSS from /proc) with the number of listings the store holds (the
 * `listing_count` row, read through a read-only connection: it lags a bulk load by at most one of
 * its commits, BULK_COMMIT_ROWS rows), and prints the samples nearest to each fifth of the load.
 */
import Database from 'better-sqlite3';
import { integer, markdownTable } from './report.js';

export interface MemorySample {
  /** Seconds since the load started. */
  seconds: number;
  /** Listings in the store (committed); null before the store exists. */
  listings: number | null;
  /** VmHWM: the peak resident memory of the process so far (MiB). */
  peakMiB: number | null;
  /** VmRSS: its resident memory at that moment (MiB). */
  rssMiB: number | null;
}

/** Listings a store holds (committed), from its kept count; null when the store or the count is not there yet. */
export function readListingCount(storeFile: string): number | null {
  let db: Database.Database | null = null;
  try {
    db = new Database(storeFile, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 1000');
    const row = db.prepare('SELECT n FROM listing_count').get() as { n: number } | undefined;
    return row?.n ?? null;
  } catch {
    return null;
  } finally {
    db?.close();
  }
}

/**
 * The samples nearest to each `steps`-th of the listings finally written (the first sample at or
 * past each mark), then how much the peak grew from the first of those rows to the last: the
 * figure that says whether memory grows with the input.
 */
export function memoryCurveTable(samples: readonly MemorySample[], steps = 5): string {
  const counted = samples.filter((s): s is MemorySample & { listings: number; peakMiB: number } => s.listings !== null && s.listings > 0 && s.peakMiB !== null);
  if (counted.length === 0) return 'No sample with listings written (the load committed nothing before it ended, or /proc is not readable).';
  const final = Math.max(...counted.map((s) => s.listings));
  const picked: typeof counted = [];
  for (let step = 1; step <= steps; step++) {
    const mark = (final * step) / steps;
    const sample = counted.find((s) => s.listings >= mark)!;
    if (picked.at(-1) !== sample) picked.push(sample);
  }
  const mib = (value: number | null) => (value === null ? '-' : value.toFixed(1));
  const table = markdownTable(
    ['listings written', 'at s', 'peak RSS so far (VmHWM, MiB)', 'RSS then (MiB)'],
    picked.map((s) => [integer(s.listings), s.seconds.toFixed(0), mib(s.peakMiB), mib(s.rssMiB)]),
  );
  const first = picked[0];
  const last = picked.at(-1)!;
  const growth = last.peakMiB - first.peakMiB;
  return (
    `${table}\n\nPeak RSS from ${integer(first.listings)} to ${integer(last.listings)} listings written: ` +
    `${mib(first.peakMiB)} -> ${mib(last.peakMiB)} MiB (${growth >= 0 ? '+' : ''}${growth.toFixed(1)} MiB).`
  );
}
