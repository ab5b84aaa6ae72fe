import { blockKeyOf } from '../../src/core/dedup/block-key.js';
import { featuresOf, type Features } from '../../src/core/dedup/features.js';
import type { StoredListing } from '../../src/core/model/stored.js';
import type { BlockCandidate } from '../../src/core/ports/listing-index.js';
import { makeListings } from './fixtures.js';

/** Every member of Features, from those of the object featuresOf makes (its getters included). */
const FEATURE_KEYS = Object.keys(featuresOf(makeListings({ count: 1 })[0])) as (keyof Features)[];

/** Features as plain values (some are computed or read on first use), shingles as an array. */
export function plainFeatures(features: Features): Record<string, unknown> {
  return Object.fromEntries(FEATURE_KEYS.map((key) => [key, key === 'text' ? Array.from(features.text) : features[key]]));
}

/** Every value a candidate gives the clustering and the key rules. */
export function comparableCandidate(candidate: Omit<BlockCandidate, 'listing'>) {
  const { id, dedup_key, change_seq, catalogue_entered_at, block_key } = candidate;
  return { id, dedup_key, change_seq, catalogue_entered_at, block_key, features: plainFeatures(candidate.features) };
}

/** The candidate a whole listing makes, as comparableCandidate gives it. */
export function expectedCandidate(listing: StoredListing) {
  const { id, dedup_key, change_seq, catalogue_entered_at } = listing;
  return comparableCandidate({ id, dedup_key, change_seq, catalogue_entered_at, block_key: blockKeyOf(listing) ?? '', features: featuresOf(listing) });
}
