/**
 * Relisted properties (docs/deduplication.md "Relisted properties"): agencies withdraw a listing and
 * publish the same property again under a new reference, on the same site or another, often at a
 * lower price, so that it looks new. A listing written for the first time is a relisting when it
 * matches, as a duplicate would match (indexer/dedup/score.ts), a listing of its blocks that left the
 * market at most RELIST_WINDOW_MS before it appeared. It then carries `relisted_from` (that listing,
 * when it left, its last price and its first-seen), its price series continues the earlier one, and
 * its first-seen is the earlier one's when older.
 *
 * Only the site rule of the scorer is lifted (two listings of one site are two properties while
 * both are on the market, not when one follows the other); every other limit and piece of evidence
 * is the scorer's, so a neighbouring flat is no more a relisting than it is a duplicate.
 *
 * The earlier listing must be withdrawn in the store, or in the same batch, when the new one is first
 * written: a withdrawal loaded after its relisting is not linked back.
 */
import { blockKeyOf, neighbourKeys } from '../src/core/dedup/block-key.js';
import { type Features, featuresOf } from '../src/core/dedup/features.js';
import type { PricePoint } from '../src/core/model/annonce.js';
import { firstSeenOf, lineageFirstSeen, type StoredListing } from '../src/core/model/stored.js';
import type { ListingIndex } from '../src/core/ports/listing-index.js';
import { MATCH_THRESHOLD, scorePair } from './dedup/score.js';
import { applyPriceReading } from './price-history.js';

/** A listing appearing more than this after a withdrawal is a new listing, not a relisting. */
export const RELIST_WINDOW_MS = 90 * 86_400_000;

/** A sale is final: a sold property on the market again is a new sale, not a withdrawal undone. */
const FINAL_STATUSES: ReadonlySet<string> = new Set(['active', 'vendue']);

/**
 * Links the batch's new listings to the withdrawn listings they relist, in place (`toWrite`: what the
 * batch writes, by id; `stored`: the stored state of the batch's ids, absent for new listings).
 * Returns the number of relistings found.
 */
export async function linkRelistings(toWrite: Map<string, StoredListing>, stored: ReadonlyMap<string, StoredListing>, store: ListingIndex): Promise<number> {
  const fresh = [...toWrite.values()].filter((listing) => !stored.has(listing.id) && listing.status === 'active' && !listing.relisted_from);
  const keyed = fresh.flatMap((listing) => {
    const key = blockKeyOf(listing);
    return key === null ? [] : [{ listing, keys: neighbourKeys(key) }];
  });
  if (keyed.length === 0) return 0;
  const earliest = Math.min(...keyed.map(({ listing }) => listing.catalogue_entered_at));
  const blockKeys = [...new Set(keyed.flatMap(({ keys }) => keys))];
  // Withdrawn in the store, or withdrawn by this very batch (not written yet).
  const withdrawn = new Map((await store.withdrawnInBlocks(blockKeys, earliest - RELIST_WINDOW_MS)).map((listing) => [listing.id, listing]));
  for (const listing of toWrite.values()) if (wasWithdrawn(listing)) withdrawn.set(listing.id, listing);
  const byBlock = new Map<string, StoredListing[]>();
  for (const listing of withdrawn.values()) {
    if (!wasWithdrawn(listing)) continue;
    const key = blockKeyOf(listing);
    if (key === null) continue;
    const list = byBlock.get(key);
    if (list) list.push(listing);
    else byBlock.set(key, [listing]);
  }
  let found = 0;
  for (const { listing, keys } of keyed) {
    const earlier = bestEarlier(
      listing,
      keys.flatMap((key) => byBlock.get(key) ?? []),
    );
    if (!earlier) continue;
    toWrite.set(listing.id, relisted(listing, earlier));
    found++;
  }
  return found;
}

function wasWithdrawn(listing: StoredListing): boolean {
  return !FINAL_STATUSES.has(listing.status) && listing.left_market_at !== null;
}

/** The withdrawn listing the new one relists: the best match within the window, the latest withdrawal on a tie. */
export function bestEarlier(listing: StoredListing, withdrawn: readonly StoredListing[]): StoredListing | null {
  const appeared = listing.catalogue_entered_at;
  const features = featuresOf(listing);
  let best: { listing: StoredListing; score: number } | null = null;
  for (const candidate of withdrawn) {
    const left = candidate.left_market_at!;
    if (left > appeared || appeared - left > RELIST_WINDOW_MS) continue;
    const score = relistingScore(features, featuresOf(candidate));
    if (score < MATCH_THRESHOLD) continue;
    if (!best || score > best.score || (score === best.score && left > best.listing.left_market_at!)) best = { listing: candidate, score };
  }
  return best?.listing ?? null;
}

/** The duplicate score of a new listing and a withdrawn one, the site rule lifted (the rest is the scorer's). */
export function relistingScore(fresh: Features, withdrawn: Features): number {
  return scorePair(fresh, withSite(withdrawn, `${withdrawn.source} (withdrawn)`));
}

/** The features with another site: the others are read through, so lazily computed ones stay lazy. */
function withSite(features: Features, source: string): Features {
  return new Proxy(features, { get: (target, field, receiver) => (field === 'source' ? source : Reflect.get(target, field, receiver)) });
}

/** The new listing following `earlier`: linked to it, its price readings first, its first-seen carried. */
export function relisted(listing: StoredListing, earlier: StoredListing): StoredListing {
  const lastPrice = earlier.content.price ?? earlier.price_points.at(-1)?.price ?? null;
  const relisting: StoredListing = {
    ...listing,
    relisted_from: {
      source: earlier.content.source,
      reference: earlier.content.reference,
      withdrawn_at: earlier.left_market_at!,
      price: lastPrice,
      first_seen_at: firstSeenOf(earlier),
    },
  };
  // The new listing's own readings continue the earlier series by the usual rule (a change of 1 % or more).
  let points: readonly PricePoint[] = earlier.price_points;
  for (const point of listing.price_points) points = applyPriceReading(points, point.price, Date.parse(point.at));
  relisting.price_points = [...points];
  relisting.first_seen_at = lineageFirstSeen(relisting);
  return relisting;
}
