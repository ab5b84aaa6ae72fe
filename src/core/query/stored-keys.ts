/**
 * The stored keys the query conditions read (filters.ts, scope.ts), named as paths of StoredListing
 * (`content.price`, `updated_at`) or as the keys both stores derive from it and index: the
 * visibility `vis` and the folded `*_norm` keys. Both stores compute the derived keys here, so the
 * embedded store's columns and the Elasticsearch document's fields hold the same values, and the
 * notifier reads a key of a listing in memory the same way (storedValue).
 */
import { foldText } from '../refdata/text.js';
import type { ListingContent, StoredListing } from '../model/stored.js';

/**
 * The folded keys and the content field each one folds: what a filter on a name compares (the
 * routes fold the query's names with the same foldText).
 */
export const FOLDED_KEYS = { type_norm: 'type', city_norm: 'city', region_norm: 'region' } as const satisfies Record<string, keyof ListingContent>;
export type FoldedKey = keyof typeof FOLDED_KEYS;

/** A field of the listing itself (not of its content), as StoredListing names it. */
type ListingField = Exclude<keyof StoredListing, 'content' | 'public_json'>;

export type StoredKey = `content.${keyof ListingContent & string}` | ListingField | FoldedKey | 'vis' | 'relisted';

/** Whether a listing republishes a withdrawn one (indexer/relisting.ts): the `relistee` filter's key. */
export function relistedOf(listing: Pick<StoredListing, 'relisted_from'>): boolean {
  return !!listing.relisted_from;
}

/** The folded keys of a content; an unknown or empty name has none. */
export function foldedKeysOf(content: ListingContent): Record<FoldedKey, string | null> {
  const folded = {} as Record<FoldedKey, string | null>;
  for (const key of Object.keys(FOLDED_KEYS) as FoldedKey[]) folded[key] = foldedValue(content, key);
  return folded;
}

function foldedValue(content: ListingContent, key: FoldedKey): string | null {
  const value = content[FOLDED_KEYS[key]];
  return value ? foldText(value) : null;
}

/**
 * Visibility, the implicit rule of search and map: 2 = active with a photo and the reference of its
 * duplicate group (no better-ranked active site ahead), 1 = active with a photo but a duplicate,
 * 0 = not searchable. The default grouped search is `vis = 2`, `dedup=0` is `vis >= 1` (scope.ts).
 */
export function visOf(listing: Pick<StoredListing, 'status' | 'has_photos' | 'group_sites_ahead'>): 0 | 1 | 2 {
  if (listing.status !== 'active' || !listing.has_photos) return 0;
  return listing.group_sites_ahead.length === 0 ? 2 : 1;
}

/** A key's value for a listing, as the stores index it (null when unknown). */
export function storedValue(listing: StoredListing, key: StoredKey): unknown {
  if (key === 'vis') return visOf(listing);
  if (key === 'relisted') return relistedOf(listing);
  if (key in FOLDED_KEYS) return foldedValue(listing.content, key as FoldedKey);
  if (key.startsWith('content.')) return listing.content[key.slice('content.'.length) as keyof ListingContent] ?? null;
  return listing[key as ListingField] ?? null;
}
