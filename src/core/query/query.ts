/**
 * The engine-neutral queries: what the routes hand to a ListingStore after validation. They hold
 * cleaned, typed values only (folded text keys, epoch milliseconds), so every backend's query
 * builder is a pure function of them.
 */
import type { DpeLetter, TransactionType } from '../model/annonce.js';
import type { GeoArea, LatLon } from './geo.js';

export const SORTS = ['recent', 'price_asc', 'price_desc', 'surface_desc', 'pricem2_asc'] as const;
export type SortName = (typeof SORTS)[number];
/** The sorts a search may ask for: those of SORTS, and `distance` from a `centre` (SearchQuery.distanceFrom). */
export const SEARCH_SORT_NAMES = [...SORTS, 'distance'] as const;

/** Filters shared by search, map and feed (the `/annonces` parameters). */
export interface ListingFilter {
  /** Full-text words (folded), all must match title or description. */
  words?: string[];
  /** Folded property types (`appartement`). */
  types?: string[];
  transaction?: TransactionType;
  /** Folded city names, any of them. */
  cities?: string[];
  postalCode?: string;
  department?: string;
  /** Folded region name. */
  region?: string;
  priceMin?: number;
  priceMax?: number;
  pricePerM2Min?: number;
  pricePerM2Max?: number;
  surfaceMin?: number;
  surfaceMax?: number;
  roomsMin?: number;
  bedroomsMin?: number;
  yearMin?: number;
  yearMax?: number;
  dpe?: DpeLetter[];
  ges?: DpeLetter[];
  /** updated_at >= this (epoch ms). */
  updatedSince?: number;
  /** published_at >= this (epoch ms). */
  createdSince?: number;
  /** true: relistings only (relisted_from set); false: no relisting. */
  relisted?: boolean;
  /** Only the listings in this polygon or circle (geo.ts). */
  area?: GeoArea;
}

/**
 * Who is asking: the access start date and the eligible sites.
 * `eligibleSites` null means every site (no site filter).
 */
export interface Scope {
  enteredFrom: number;
  eligibleSites: string[] | null;
}

/** A position in a sort: the sort values of the last item returned, ending with its unique id. */
export type SortPosition = (number | string)[];

export interface SearchQuery {
  filter: ListingFilter;
  scope: Scope;
  /** true: one listing per duplicate group (the best-ranked eligible site). */
  grouped: boolean;
  sort: SortName;
  pageSize: number;
  /** Either page mode (1-based page) or keyset mode (after a position). */
  page: number;
  after: SortPosition | null;
  /**
   * `sort=distance`: nearest first from this point, then by id, instead of `sort`; only listings
   * with coordinates (a distance needs them). Positions are [metres, id].
   */
  distanceFrom?: LatLon;
}

export interface SearchResult<T> {
  items: T[];
  hasMore: boolean;
  /** Position of the last item, for the next cursor; null when no item. */
  last: SortPosition | null;
}

export interface BoundingBox {
  south: number;
  west: number;
  north: number;
  east: number;
}

export interface MapQuery {
  filter: ListingFilter;
  scope: Scope;
  grouped: boolean;
  bbox: BoundingBox;
  limit: number;
}

export interface FeedQuery {
  filter: ListingFilter;
  scope: Scope;
  /** Only listings changed at or before this time (now minus the settle delay). */
  changedUntil: number;
  pageSize: number;
  after: SortPosition | null;
  /**
   * The items read whole (every field of the stored listing), for a follower that matches them (the
   * notifier). Without it a store may give listings that hold only what the API presents (their
   * Annonce text, id, status and change position: ListingReader).
   */
  whole?: boolean;
}

/**
 * Listings that left the market, ordered like the feed by (changed_at, change_seq) of the write that
 * moved them out, so a mirror following it never misses one (a backfill may carry an old withdrawal
 * date, but its write is new). `withdrawn_at` in the response is the collection time of that pass.
 */
export interface WithdrawnQuery {
  scope: Scope;
  changedUntil: number;
  pageSize: number;
  after: SortPosition | null;
  /** As FeedQuery.whole. */
  whole?: boolean;
}
