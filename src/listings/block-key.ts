/**
 * Blocking key of deduplication (DESIGN.md Deduplication), shared by the indexer (which reads blocks
 * through ListingStore.findBlock) and the stores (which index the key), so both always agree.
 *
 * Duplicate candidates share transaction, normalised type and postal code (the "base"). Inside a base
 * the key adds a PRICE BUCKET, because a base can hold hundreds of flats (thousands on a national
 * catalogue) and the indexer reads a listing's candidates for every batch it appears in:
 * - copies of one property are never more than 10 % apart in price (score.ts LIMITS.priceRatio), and a
 *   bucket is a little wider than 10 % on a log scale, so any two prices within 10 % fall in the same
 *   or in adjacent buckets: neighbouring buckets must still meet, and a listing's candidates are read
 *   from its bucket and the two around it (`neighbourKeys`);
 * - a listing without a price goes to bucket `-`, and only meets listings without a price (the price
 *   limit treats "one price unknown" as not comparable, so blocking and scoring agree).
 * Surface is not used: sites omit it more often than the price, and rounding makes it a worse key.
 */
import { foldText } from '../refdata/text.js';
import type { StoredListing } from './stored.js';

/** Slightly wider than ln(1 / 0.9), so a 10 % price gap never spans more than one bucket boundary. */
export const PRICE_BUCKET_WIDTH = Math.log(1 / 0.9) * 1.001;
const NO_PRICE = '-';

type WithContent = Pick<StoredListing, 'content'>;

/** `transaction|folded type|postal code`, or null when the postal code is unknown (never grouped). */
export function blockBaseOf(listing: WithContent): string | null {
  const c = listing.content;
  if (!c.postal_code) return null;
  return `${c.transaction_type}|${foldedType(c.type)}|${c.postal_code}`;
}

/** Types are a handful of normalised names, and the key is computed for every listing read or written. */
const FOLDED_TYPES = new Map<string, string>();
function foldedType(type: string): string {
  let folded = FOLDED_TYPES.get(type);
  if (folded === undefined) {
    folded = foldText(type);
    if (FOLDED_TYPES.size < 1000) FOLDED_TYPES.set(type, folded);
  }
  return folded;
}

/** Bucket number of a price (null without a usable price). */
export function priceBucket(price: number | null): number | null {
  return price !== null && price > 0 ? Math.floor(Math.log(price) / PRICE_BUCKET_WIDTH) : null;
}

/** `base|bucket`: the block a listing is stored in and looked up by. */
export function blockKeyOf(listing: WithContent): string | null {
  const base = blockBaseOf(listing);
  if (base === null) return null;
  const bucket = priceBucket(listing.content.price);
  return `${base}|${bucket ?? NO_PRICE}`;
}

/** The blocks holding every possible candidate of a listing stored under `key`: its bucket and the two around it. */
export function neighbourKeys(key: string): string[] {
  const cut = key.lastIndexOf('|');
  const base = key.slice(0, cut);
  const bucket = key.slice(cut + 1);
  if (bucket === NO_PRICE) return [key];
  const b = Number(bucket);
  return [`${base}|${b - 1}`, key, `${base}|${b + 1}`];
}

/** The base (transaction|type|postal code) of a block key. */
export function baseOfKey(key: string): string {
  return key.slice(0, key.lastIndexOf('|'));
}
