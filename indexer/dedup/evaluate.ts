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
  /**
   * Active listings by the shape of their property's copies (the generator's `shape` label: classic,
   * sparse, twin...), pairs within one shape: how each kind of pair fares, the rare ones included.
   */
  by_shape: Record<string, PairScores>;
  /** Listings of the store without a label (should be 0). */
  unlabelled: number;
}

export interface Labels {
  /** Listing id -> ground-truth property. */
  property: Map<string, string>;
  /** Listing id -> shape of its property's copies, when the labels give one. */
  shape: Map<string, string>;
}

/** Labels file: one `{"source","reference","property","shape"?}` per line (gzip when it ends in .gz). */
export async function readLabels(file: string): Promise<Labels> {
  const labels: Labels = { property: new Map(), shape: new Map() };
  const input = createReadStream(file);
  const lines = createInterface({ input: file.endsWith('.gz') ? input.pipe(createGunzip()) : input, crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.trim()) continue;
    const label = JSON.parse(line) as { source: string; reference: string | number; property: string; shape?: string };
    const id = listingId(label.source, String(label.reference));
    labels.property.set(id, label.property);
    if (label.shape !== undefined) labels.shape.set(id, label.shape);
  }
  return labels;
}

export async function evaluateStore(store: ListingStore, labels: Labels): Promise<Evaluation> {
  const active = new PairCounter();
  const all = new PairCounter();
  const byShape = new Map<string, PairCounter>();
  let unlabelled = 0;
  for await (const page of scanListings(store, 'all')) {
    for (const listing of page) {
      const label = labels.property.get(listing.id);
      if (label === undefined) { unlabelled++; continue; }
      all.add(label, listing.dedup_key);
      if (listing.status !== 'active') continue;
      active.add(label, listing.dedup_key);
      const shape = labels.shape.get(listing.id);
      if (shape === undefined) continue;
      let counter = byShape.get(shape);
      if (!counter) byShape.set(shape, (counter = new PairCounter()));
      counter.add(label, listing.dedup_key);
    }
  }
  const by_shape = Object.fromEntries([...byShape].sort(([a], [b]) => a.localeCompare(b)).map(([shape, counter]) => [shape, counter.scores()]));
  return { active: active.scores(), all: all.scores(), by_shape, unlabelled };
}
