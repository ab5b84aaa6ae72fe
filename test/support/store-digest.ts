/**
 * A digest of what a listings store holds, computed through the ListingStore port only, so that it
 * compares an SQLite store with another SQLite store, or an Elasticsearch index with another one.
 *
 * Per listing: every stored field except the write positions (change_seq, changed_at: a rerun after
 * a crash writes at other positions and times, and nobody can tell them apart but the feed's order).
 * Plus what the indexes answer: the map's total over the whole world and a few full-text searches
 * (a store whose rows are right but whose full-text or map index is empty differs here).
 */
import { createHash } from 'node:crypto';
import type { StoredListing } from '../../src/core/model/stored.js';
import type { ListingStore } from '../../src/core/ports/listing-store.js';
import { scanListings } from '../../indexer/dedup/scan.js';
import { queryWords } from '../../src/core/refdata/text.js';

export interface StoreDigest {
  listings: number;
  grouped: number;
  /** SHA-256 of the listings' projections, in id order. */
  rows: string;
  mapTotal: number;
  /** Full-text word -> listings it finds (at most 100). */
  fullText: Record<string, number>;
}

const EVERYTHING = { enteredFrom: Number.MIN_SAFE_INTEGER, eligibleSites: null };

export function projection(listing: StoredListing): Omit<StoredListing, 'change_seq' | 'changed_at' | 'public_json'> {
  const { change_seq: _seq, changed_at: _at, public_json: _json, ...rest } = listing;
  return rest;
}

export async function storeDigest(store: ListingStore, probeWords = 4): Promise<StoreDigest> {
  const ids: string[] = [];
  for await (const page of scanListings(store, 'all')) for (const listing of page) ids.push(listing.id);
  ids.sort();
  const hash = createHash('sha256');
  let grouped = 0;
  const words = new Set<string>();
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const listings = await store.getMany(chunk);
    for (const id of chunk) {
      const listing = listings.get(id);
      if (!listing) throw new Error(`${id} is in the feed but getMany does not find it`);
      if (listing.dedup_key !== null) grouped++;
      hash.update(`${canonical(projection(listing))}\n`);
      if (words.size < probeWords && listing.status === 'active') {
        const word = queryWords(listing.content.title ?? '').find((w) => w.length >= 6);
        if (word) words.add(word);
      }
    }
  }
  const fullText: Record<string, number> = {};
  for (const word of [...words].sort()) {
    const result = await store.search({ filter: { words: [word] }, scope: EVERYTHING, grouped: false, sort: 'recent', pageSize: 100, page: 1, after: null });
    fullText[word] = result.items.length;
  }
  const map = await store.map({ filter: {}, scope: EVERYTHING, grouped: false, bbox: { south: -90, west: -180, north: 90, east: 180 }, limit: 1 });
  return { listings: ids.length, grouped, rows: hash.digest('hex'), mapTotal: map.total, fullText };
}

/** JSON with the keys of every object sorted: two equal listings give the same text. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) && !Buffer.isBuffer(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
