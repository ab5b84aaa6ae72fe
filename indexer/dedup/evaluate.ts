/**
 * Quality of the grouping on a labelled catalogue (the sample generator writes the property id of
 * each record in a labels file): pairwise precision, recall and F1 of the dedup_keys in a store.
 *
 * Two figures:
 * - `active`: listings on the market, the ones deduplication is for (grouping works on the active
 *   listings of a block; a listing that leaves the market leaves its group). This is the headline.
 * - `all`: every record, withdrawn ones included (their pairs count as missed), for reference.
 * And the relistings (indexer/relisting.ts) against those the generator planted (`relisted_from` labels).
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { listingId } from '../../src/core/model/stored.js';
import type { ListingIndex } from '../../src/core/ports/listing-index.js';
import { PairCounter, scoresOf, type PairScores } from './metrics.js';
import { ownContent } from './own-content.js';
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
  relistings: RelistingScores;
}

/**
 * Relistings planted by the generator and found by the indexer. `found_exact`: planted ones linked
 * to the very listing they republish (recall: found_exact / planted); `found_same_property`: found
 * ones linked to a listing of the same property (precision: found_same_property / found; a copy
 * of a withdrawn property still listed on another site is such a link without being planted).
 */
export interface RelistingScores {
  planted: number;
  found: number;
  found_exact: number;
  found_same_property: number;
  precision: number;
  recall: number;
}

export interface Labels {
  /** Listing id -> ground-truth property. */
  property: Map<string, string>;
  /** Listing id -> shape of its property's copies, when the labels give one. */
  shape: Map<string, string>;
  /** Listing id -> id of the listing it republishes, for the relistings the generator planted. */
  relistedFrom: Map<string, string>;
}

/** Labels file: one `{"source","reference","property","shape"?}` per line (gzip when it ends in .gz). */
export async function readLabels(file: string): Promise<Labels> {
  const labels: Labels = { property: new Map(), shape: new Map(), relistedFrom: new Map() };
  const input = createReadStream(file);
  const lines = createInterface({ input: file.endsWith('.gz') ? input.pipe(createGunzip()) : input, crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.trim()) continue;
    const label = JSON.parse(line) as { source: string; reference: string | number; property: string; shape?: string; relisted_from?: string };
    const id = listingId(label.source, String(label.reference));
    labels.property.set(id, label.property);
    if (label.shape !== undefined) labels.shape.set(id, label.shape);
    if (label.relisted_from !== undefined) labels.relistedFrom.set(id, label.relisted_from);
  }
  return labels;
}

export async function evaluateStore(store: ListingIndex, labels: Labels): Promise<Evaluation> {
  const active = new PairCounter();
  const all = new PairCounter();
  const byShape = new Map<string, PairCounter>();
  let unlabelled = 0;
  const relistings = { found: 0, found_exact: 0, found_same_property: 0 };
  for await (const page of scanListings(store, 'all')) {
    for (const listing of page) {
      const label = labels.property.get(listing.id);
      if (label === undefined) {
        unlabelled++;
        continue;
      }
      const from = listing.relisted_from ? listingId(listing.relisted_from.source, listing.relisted_from.reference) : null;
      if (from !== null) {
        relistings.found++;
        if (labels.relistedFrom.get(listing.id) === from) relistings.found_exact++;
        if (labels.property.get(from) === label) relistings.found_same_property++;
      }
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
  const planted = labels.relistedFrom.size;
  return {
    active: active.scores(),
    all: all.scores(),
    by_shape,
    unlabelled,
    relistings: {
      planted,
      ...relistings,
      precision: relistings.found === 0 ? 1 : round4(relistings.found_same_property / relistings.found),
      recall: planted === 0 ? 1 : round4(relistings.found_exact / planted),
    },
  };
}

function round4(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

/** A pair of listings labelled by reading them: `same`, `different`, or `unsure` (left out of the figures). */
export interface LabelledPair {
  a: string;
  b: string;
  label: 'same' | 'different' | 'unsure';
  /** How the pair was drawn for labelling (docs/deduplication.md). */
  drawn_from: string;
  reason: string;
}

export interface PairEvaluation {
  /** Pairs labelled same / different, and left out as unsure or because a listing is not in the store. */
  same: number;
  different: number;
  unsure: number;
  missing: number;
  /** Labelled pairs the store holds in one group, and those of them labelled same. */
  grouped: number;
  grouped_same: number;
  precision: number;
  recall: number;
  /** The labelled pairs that disagree with the store, for reading. */
  disagreements: { a: string; b: string; label: string; grouped: boolean; reason: string }[];
}

/** `seloger/262973311` -> the store id `seloger:262973311`. */
function storeId(text: string): string {
  const at = text.indexOf('/');
  return listingId(text.slice(0, at), text.slice(at + 1));
}

export async function readLabelledPairs(file: string): Promise<LabelledPair[]> {
  const pairs: LabelledPair[] = [];
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  for await (const line of lines) if (line.trim()) pairs.push(JSON.parse(line) as LabelledPair);
  return pairs;
}

/** Pairwise precision and recall of the store's groups on pairs labelled by reading them. */
export async function evaluateLabelledPairs(store: ListingIndex, pairs: readonly LabelledPair[]): Promise<PairEvaluation> {
  const listings = await store.getMany([...new Set(pairs.flatMap((p) => [storeId(p.a), storeId(p.b)]))]);
  const result: PairEvaluation = { same: 0, different: 0, unsure: 0, missing: 0, grouped: 0, grouped_same: 0, precision: 1, recall: 1, disagreements: [] };
  for (const pair of pairs) {
    if (pair.label === 'unsure') {
      result.unsure++;
      continue;
    }
    const a = listings.get(storeId(pair.a));
    const b = listings.get(storeId(pair.b));
    if (!a || !b) {
      result.missing++;
      continue;
    }
    const grouped = a.dedup_key !== null && a.dedup_key === b.dedup_key;
    if (pair.label === 'same') result.same++;
    else result.different++;
    if (grouped) result.grouped++;
    if (grouped && pair.label === 'same') result.grouped_same++;
    if (grouped !== (pair.label === 'same')) result.disagreements.push({ a: pair.a, b: pair.b, label: pair.label, grouped, reason: pair.reason });
  }
  const scores = scoresOf({ listings: listings.size, truePairs: result.same, predictedPairs: result.grouped, correctPairs: result.grouped_same });
  return { ...result, precision: scores.precision, recall: scores.recall };
}

export interface UnambiguousPairs {
  pairs: number;
  grouped: number;
  recall: number;
}

/** Surfaces this close are one measure for the definition below (the same as score.ts's). */
const SAME_MEASURE_M2 = 0.6;

/**
 * Recall on the pairs that need no label: two listings of two sites, each the other's only
 * candidate on the other site with the same price, the same rooms and surfaces within 0.6 m²
 * (both given). Nearly every such pair is one property, whatever else the listings say or omit.
 */
export async function evaluateUnambiguousPairs(store: ListingIndex): Promise<UnambiguousPairs> {
  interface Entry {
    id: string;
    source: string;
    surface: number;
    key: string | null;
  }
  const byValues = new Map<string, Entry[]>();
  for await (const page of scanListings(store, 'active')) {
    for (const listing of page) {
      // Its own values: what a group completed it with is no part of the pair's definition.
      const c = ownContent(listing);
      if (c.price === null || c.rooms === null || c.surface === null) continue;
      const values = `${c.transaction_type}|${c.price}|${c.rooms}`;
      let entries = byValues.get(values);
      if (!entries) byValues.set(values, (entries = []));
      entries.push({ id: listing.id, source: c.source, surface: c.surface, key: listing.dedup_key });
    }
  }
  let pairs = 0;
  let grouped = 0;
  for (const entries of byValues.values()) {
    const candidates = (a: Entry, site: string) => entries.filter((b) => b.source === site && Math.abs(a.surface - b.surface) <= SAME_MEASURE_M2);
    for (const a of entries) {
      for (const b of entries) {
        if (a.source >= b.source) continue;
        const ofA = candidates(a, b.source);
        if (ofA.length !== 1 || ofA[0] !== b || candidates(b, a.source).length !== 1) continue;
        pairs++;
        if (a.key !== null && a.key === b.key) grouped++;
      }
    }
  }
  return { pairs, grouped, recall: pairs === 0 ? 1 : grouped / pairs };
}
