/**
 * Quality of the grouping on a labelled catalogue (the sample generator writes the property id of
 * each record in a labels file): pairwise precision, recall and F1 of the dedup_keys in a store.
 *
 * Two figures:
 * - `active`: listings on the market, the ones deduplication is for (grouping works on the active
 *   listings of a block; a listing that leaves the market leaves its group). This is the headline.
 * - `all`: every record, withdrawn ones included (their pairs count as missed), for reference.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { listingId } from '../../src/listings/stored.js';
import type { ListingStore } from '../../src/stores/listing-store.js';
import { PairCounter, type PairScores } from './metrics.js';
import { scanListings } from './scan.js';

export interface Evaluation {
  active: PairScores;
  all: PairScores;
  /** Listings of the store without a label (should be 0). */
  unlabelled: number;
}

/** Labels file: one `{"source","reference","property"}` per line (gzip when it ends in .gz). */
export async function readLabels(file: string): Promise<Map<string, string>> {
  const labels = new Map<string, string>();
  const input = createReadStream(file);
  const lines = createInterface({ input: file.endsWith('.gz') ? input.pipe(createGunzip()) : input, crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.trim()) continue;
    const label = JSON.parse(line) as { source: string; reference: string | number; property: string };
    labels.set(listingId(label.source, String(label.reference)), label.property);
  }
  return labels;
}

export async function evaluateStore(store: ListingStore, labels: ReadonlyMap<string, string>): Promise<Evaluation> {
  const active = new PairCounter();
  const all = new PairCounter();
  let unlabelled = 0;
  for await (const page of scanListings(store, 'all')) {
    for (const listing of page) {
      const label = labels.get(listing.id);
      if (label === undefined) { unlabelled++; continue; }
      all.add(label, listing.dedup_key);
      if (listing.status === 'active') active.add(label, listing.dedup_key);
    }
  }
  return { active: active.scores(), all: all.scores(), unlabelled };
}
