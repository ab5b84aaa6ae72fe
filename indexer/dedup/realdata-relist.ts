/**
 * Relistings in the Levallois crawl (realdata.ts): the crawl gives each row's first publication and
 * its last crawl, so it can be replayed as a collector would have seen it: each row appears at its
 * publication, and a row last crawled well before the export has left its portal then. Loaded in
 * that order, the indexer links the rows that came back under a new id (indexer/relisting.ts); the
 * report counts them and lists their ids for reading.
 */
import type { ListingIndex } from '../../src/core/ports/listing-index.js';
import { scanListings } from './scan.js';

/** A row not crawled in the last days before the export had left its portal. */
const GONE_AFTER_MS = 7 * 86_400_000;
const DAY_MS = 86_400_000;

export interface RelistingsFound {
  /** Rows that left their portal before the export, and rows found to relist one of them. */
  withdrawn: number;
  relisted: number;
  same_portal: number;
  other_portal: number;
  cheaper: number;
  /** Days from the withdrawal to the new row's publication: median, and at most. */
  median_gap_days: number;
  max_gap_days: number;
  /** `new -> earlier` ids (`<portal>:<row id>`), for reading. */
  pairs: string[];
}

/** The crawl's records as a timeline: each row active at its publication, then withdrawn at its last crawl when that is before the export. */
export function levalloisTimeline(records: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  const crawled = (record: Record<string, unknown>) => Date.parse(`${String(record.collected_at)}Z`);
  const exportedAt = Math.max(...records.map(crawled));
  const events: { at: number; record: Record<string, unknown> }[] = [];
  for (const record of records) {
    const published = typeof record.published_at === 'string' && record.published_at ? record.published_at : String(record.collected_at);
    events.push({ at: Date.parse(`${published}Z`), record: { ...record, collected_at: published } });
    if (exportedAt - crawled(record) > GONE_AFTER_MS) events.push({ at: crawled(record), record: { ...record, status: 'retirée' } });
  }
  return events.sort((a, b) => a.at - b.at).map((event) => event.record);
}

export async function relistingsFound(store: ListingIndex): Promise<RelistingsFound> {
  const found: RelistingsFound = { withdrawn: 0, relisted: 0, same_portal: 0, other_portal: 0, cheaper: 0, median_gap_days: 0, max_gap_days: 0, pairs: [] };
  const gaps: number[] = [];
  for await (const page of scanListings(store, 'all')) {
    for (const listing of page) {
      if (listing.status !== 'active') found.withdrawn++;
      const from = listing.relisted_from;
      if (!from) continue;
      found.relisted++;
      if (from.source === listing.content.source) found.same_portal++;
      else found.other_portal++;
      if (from.price !== null && listing.content.price !== null && listing.content.price < from.price) found.cheaper++;
      gaps.push((listing.catalogue_entered_at - from.withdrawn_at) / DAY_MS);
      found.pairs.push(`${listing.id} -> ${from.source}:${from.reference}`);
    }
  }
  gaps.sort((a, b) => a - b);
  found.median_gap_days = gaps.length ? Math.round(gaps[Math.floor(gaps.length / 2)]) : 0;
  found.max_gap_days = gaps.length ? Math.round(gaps[gaps.length - 1]) : 0;
  found.pairs.sort();
  return found;
}
