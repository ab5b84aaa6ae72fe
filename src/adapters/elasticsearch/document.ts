/**
 * StoredListing <-> Elasticsearch `_source` (field types in mappings/annonces.json).
 *
 * The document keeps the StoredListing shape (so `get` round-trips exactly) and adds the derived,
 * indexed keys the queries need: `vis` and the folded `*_norm` keys, computed by the core
 * (src/core/query/stored-keys.ts) as for the SQLite adapter's columns, `block_key`, `location`, and
 * `search_text`: the tokens of the title and the description as both engines index them
 * (textTokens), so a cluster's own analysis only splits them on spaces. `search_text` is left out
 * of the stored `_source` (mappings/annonces.json): it is rebuilt from the content on every write.
 *
 * The price series (`price_points`) is excluded from `_source` on every read path of the API except
 * the detail (`get`); those reads get `price_digest` instead, which holds what the presenters show
 * without the series (docs/api.md price_history: current, previous, changed_at, changes, tracked_since).
 */
import type { PricePoint } from '../../core/model/annonce.js';
import type { ListingContent, StoredListing } from '../../core/model/stored.js';
import { textTokens } from '../../core/refdata/text.js';
import { foldedKeysOf, relistedOf, visOf, type FoldedKey } from '../../core/query/stored-keys.js';
import { blockKeyOf } from '../../core/dedup/block-key.js';
import { readModelFields, RELISTING_FIELDS, type DetailFields, type ReadModelFields, type ReadModelLayout } from './read-model.js';

/** What the presenters need of a series that is not sent: its length, first and last two points. */
export interface PriceDigest {
  count: number;
  first: PricePoint;
  previous: PricePoint | null;
  last: PricePoint;
}

export interface ListingSource extends Record<FoldedKey, string | null> {
  id: string;
  status: StoredListing['status'];
  /** 2 = searchable reference of its group, 1 = searchable duplicate, 0 = not searchable (src/core/query/stored-keys.ts visOf). */
  vis: 0 | 1 | 2;
  catalogue_entered_at: number;
  updated_at: number;
  published_at: number | null;
  changed_at: number;
  change_seq: number;
  left_market_at: number | null;
  has_photos: boolean;
  dedup_key: string | null;
  group_sites_ahead: string[];
  block_key: string | null;
  /** Written, indexed, never read back (excluded from `_source`). */
  search_text?: string;
  location: { lat: number; lon: number } | null;
  content_hash: string;
  group_members: StoredListing['group_members'];
  completed_from: StoredListing['completed_from'];
  price_points: PricePoint[];
  price_digest: PriceDigest | null;
  content: ListingContent;
  /** The earlier listing of a relisting (stored, not indexed); `relisted` is its indexed flag (the `relistee` filter). */
  relisted_from?: StoredListing['relisted_from'];
  relisted?: boolean;
  first_seen_at?: number;
  /** StoredListing.absent_loads and absent_at, only while a count runs: an index of an older mapping never gets them unasked (read-model.ts mappingHasAbsences). */
  absent_loads?: number;
  absent_at?: number;
}

/** A document as written to an index of the current mapping: the listing and its read model (read-model.ts). */
export type WrittenSource = ListingSource & Partial<ReadModelFields & DetailFields>;

/**
 * What result pages (search, feed, withdrawn) leave out of `_source`: the price series (the digest
 * stands for it) and the keys that exist only to be queried or to serve the indexer. Everything but
 * `get`, `getMany` and `findBlock` reads this way.
 */
export const PAGE_EXCLUDED_FIELDS = [
  'price_points',
  'content_hash',
  'block_key',
  'type_norm',
  'city_norm',
  'region_norm',
  'location',
  'vis',
  'group_sites_ahead',
];
export const PAGE_SOURCE = { excludes: PAGE_EXCLUDED_FIELDS };

/** The only fields `presentMapPoint` reads: a map answer carries up to 2 000 points, many times a second. */
export const MAP_POINT_FIELDS = [
  'id',
  'status',
  'vis',
  'catalogue_entered_at',
  'updated_at',
  'content.source',
  'content.reference',
  'content.latitude',
  'content.longitude',
  'content.price',
  'content.price_per_m2',
  'content.surface',
  'content.price_per_m2_color',
  'content.type',
  'content.title',
  'content.city',
  'content.postal_code',
  'content.images',
  'content.rooms',
  'content.is_internal',
];

/** The document of a listing, with what `layout` holds of the texts the API sends (read-model.ts). */
export function toSource(listing: StoredListing, layout: ReadModelLayout = 'none'): WrittenSource {
  const source = listingSource(listing);
  if (layout === 'none') return source;
  return { ...source, ...readModelFields(listing, layout, source.block_key) };
}

/**
 * The document as an index of an older mapping takes it (the bulk writer, when the target lacks the
 * current fields: read-model.ts mappingHasReadModel): without the relisting fields, which it refuses.
 */
export function toOlderSource(listing: StoredListing): WrittenSource {
  const source = listingSource(listing);
  for (const field of RELISTING_FIELDS) delete source[field];
  return source;
}

function listingSource(listing: StoredListing): ListingSource {
  const c = listing.content;
  const points = listing.price_points;
  return {
    id: listing.id,
    status: listing.status,
    vis: visOf(listing),
    catalogue_entered_at: listing.catalogue_entered_at,
    updated_at: listing.updated_at,
    published_at: listing.published_at,
    changed_at: listing.changed_at,
    change_seq: listing.change_seq,
    left_market_at: listing.left_market_at,
    has_photos: listing.has_photos,
    dedup_key: listing.dedup_key,
    group_sites_ahead: listing.group_sites_ahead,
    block_key: blockKeyOf(listing),
    ...foldedKeysOf(c),
    search_text: searchTextOf(c),
    // Both or nothing: a half-known position must not land on the equator or the meridian.
    location: c.latitude !== null && c.longitude !== null ? { lat: c.latitude, lon: c.longitude } : null,
    content_hash: listing.content_hash,
    group_members: listing.group_members,
    completed_from: listing.completed_from,
    price_points: points,
    price_digest: points.length
      ? { count: points.length, first: points[0], previous: points.length > 1 ? points[points.length - 2] : null, last: points[points.length - 1] }
      : null,
    content: c,
    relisted_from: listing.relisted_from ?? null,
    relisted: relistedOf(listing),
    ...(listing.first_seen_at !== undefined ? { first_seen_at: listing.first_seen_at } : {}),
    ...(listing.absent_loads ? { absent_loads: listing.absent_loads, absent_at: listing.absent_at ?? 0 } : {}),
  };
}

/** Each distinct token of the title and the description once: the query asks for words, not counts. */
export function searchTextOf(content: Pick<ListingContent, 'title' | 'description'>): string {
  return [...new Set([...textTokens(content.title ?? ''), ...textTokens(content.description ?? '')])].join(' ');
}

/**
 * The StoredListing of a document. Read in full (`get`, `getMany`, `findBlock`), it is exactly what
 * was written. Read as a result page (search, feed, withdrawn: PAGE_SOURCE), `price_points` is
 * rebuilt from the digest with the true length and the true first and last two readings, which is
 * all presentPriceHistory reads; the middle readings are placeholders (copies of the first). Such a
 * listing is for presenting only and must never be written back: the indexer reads with getMany and
 * findBlock, which carry the series.
 */
export function fromSource(
  source: Omit<ListingSource, 'price_points' | 'content_hash'> & { price_points?: PricePoint[]; content_hash?: string },
): StoredListing {
  return {
    id: source.id,
    content: source.content,
    completed_from: source.completed_from ?? {},
    status: source.status,
    catalogue_entered_at: source.catalogue_entered_at,
    updated_at: source.updated_at,
    published_at: source.published_at ?? null,
    changed_at: source.changed_at,
    change_seq: source.change_seq,
    left_market_at: source.left_market_at ?? null,
    has_photos: source.has_photos,
    dedup_key: source.dedup_key ?? null,
    group_sites_ahead: source.group_sites_ahead ?? [],
    group_members: source.group_members ?? null,
    price_points: source.price_points ?? expandDigest(source.price_digest ?? null),
    content_hash: source.content_hash ?? '',
    ...(source.relisted_from ? { relisted_from: source.relisted_from } : {}),
    ...(source.first_seen_at !== undefined && source.first_seen_at !== null ? { first_seen_at: source.first_seen_at } : {}),
    ...(source.absent_loads ? { absent_loads: source.absent_loads, absent_at: source.absent_at ?? 0 } : {}),
  };
}

export function expandDigest(digest: PriceDigest | null): PricePoint[] {
  if (!digest || digest.count < 1) return [];
  if (digest.count === 1) return [digest.last];
  const previous = digest.previous ?? digest.first;
  if (digest.count === 2) return [previous, digest.last];
  const middle: PricePoint[] = Array.from({ length: digest.count - 3 }, () => digest.first);
  return [digest.first, ...middle, previous, digest.last];
}

/**
 * A map point read with MAP_POINT_FIELDS only. The content holds just what presentMapPoint reads;
 * the other StoredListing fields get neutral values. Never present it with presentAnnonce.
 */
export function fromMapHit(
  source: Pick<ListingSource, 'id' | 'status' | 'vis' | 'catalogue_entered_at' | 'updated_at'> & { content: Partial<ListingContent> },
): StoredListing {
  return {
    id: source.id,
    content: { images: [], ...source.content } as ListingContent,
    completed_from: {},
    status: source.status,
    catalogue_entered_at: source.catalogue_entered_at,
    updated_at: source.updated_at,
    published_at: null,
    changed_at: 0,
    change_seq: 0,
    left_market_at: null,
    has_photos: source.vis > 0,
    dedup_key: null,
    group_sites_ahead: [],
    group_members: null,
    price_points: [],
    content_hash: '',
  };
}
