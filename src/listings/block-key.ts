/**
 * Blocking key of deduplication (DESIGN.md Deduplication): two site listings are compared only when
 * they share transaction, normalised type and postal code. Shared by the indexer (which looks blocks
 * up through ListingStore.findBlock) and by the stores (which index the key), so both always agree.
 *
 * Surface and price are deliberately NOT part of the key: copies of one property differ by rounding
 * and by a few percent, so any bucketing would split true duplicates across neighbouring buckets.
 * They are compared inside the block instead (indexer/dedup/candidates.ts).
 */
import { foldText } from '../refdata/text.js';
import type { StoredListing } from './stored.js';

/** `transaction|folded type|postal code`, or null when the postal code is unknown (never grouped). */
export function blockKeyOf(listing: Pick<StoredListing, 'content'>): string | null {
  const c = listing.content;
  if (!c.postal_code) return null;
  return `${c.transaction_type}|${foldText(c.type)}|${c.postal_code}`;
}
