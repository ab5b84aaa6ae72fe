/**
 * What the store holds for one site listing: the public Annonce fields (already normalised and
 * redacted by the indexer) plus internal fields that are never serialised (docs/architecture.md).
 * Dates are ISO strings in the public part and epoch milliseconds in the internal part, because
 * both backends filter and sort on numbers.
 */
import { ANNONCE_FIELDS, type Annonce, type ListingStatus, type PricePoint } from './annonce.js';

/** The Annonce fields the presenter computes (from the group, the price points, the privacy rules): not content. */
export const COMPUTED_ANNONCE_FIELDS = ['dedup_key', 'sources', 'price_history', 'seller_contact', 'first_seen_at', 'relisted_from'] as const;

/** Public content of a stored listing: the Annonce without the fields computed from its group. */
export type ListingContent = Omit<Annonce, (typeof COMPUTED_ANNONCE_FIELDS)[number]>;

/** The fields of ListingContent, in the Annonce's documented order. */
export const CONTENT_FIELDS = ANNONCE_FIELDS.filter((field) => !(COMPUTED_ANNONCE_FIELDS as readonly string[]).includes(field)) as (keyof ListingContent)[];

export interface StoredListing {
  /** `source:reference`, the store id. */
  id: string;
  content: ListingContent;
  /** `<field>_source` completions from other members of the duplicate group (field -> site). */
  completed_from: Record<string, string>;
  status: ListingStatus;
  /** collected_at of the first record ever written for (source, reference); never moves. */
  catalogue_entered_at: number;
  updated_at: number;
  published_at: number | null;
  /** Wall-clock time of the last write that changed public content, and its monotonic sequence. */
  changed_at: number;
  change_seq: number;
  left_market_at: number | null;
  has_photos: boolean;
  dedup_key: string | null;
  /** Sites of the same duplicate group (active members) ranked above this one. */
  group_sites_ahead: string[];
  /** Members of the group, for `sources[]` (null without a duplicate). */
  group_members: { source: string; reference: string; url: string; price: number | null }[] | null;
  price_points: PricePoint[];
  /**
   * The withdrawn listing this one republishes, set once when it is first written (indexer/relisting.ts);
   * absent or null when it is none. Its price readings open this listing's `price_points`.
   */
  relisted_from?: StoredRelisting | null;
  /**
   * Since when the property is on the market (epoch ms): the earliest of the listing's own first
   * collection, the first-seen of the listing it was relisted from, and the same of every member of
   * its duplicate group (indexer/dedup/group-output.ts). Absent in stores written before it existed:
   * catalogue_entered_at then stands for it (firstSeenOf).
   */
  first_seen_at?: number;
  /** Hash of the public content, so an identical re-load is detected as `unchanged`. */
  content_hash: string;
  /**
   * Consecutive snapshot loads of its site (`load --snapshot`) that did not hold it, and the pass
   * (latest collected_at) of the last of them, so that a snapshot loaded again is not counted twice;
   * both absent while none missed it. A record of the listing clears them; a listing withdrawn for
   * its absence keeps them, which is how its withdrawal reads `absent` (withdrawnReason).
   */
  absent_loads?: number;
  absent_at?: number;
  /**
   * Read side only: the UTF-8 bytes of JSON.stringify(presentAnnonce(this)) as the store wrote it at
   * index time (present.ts annonceJson). Set by a store on the listings of a result page, never by
   * the indexer.
   */
  readonly public_json?: Buffer;
}

/** The earlier listing of a relisting, as stored (dates in epoch ms). */
export interface StoredRelisting {
  source: string;
  reference: string;
  withdrawn_at: number;
  price: number | null;
  /** The earlier listing's first-seen when this one was relisted from it (its own relistings and group included). */
  first_seen_at: number;
}

/** The listing's own first-seen, before its group: its first collection, or earlier through the listing it was relisted from. */
export function lineageFirstSeen(listing: Pick<StoredListing, 'catalogue_entered_at' | 'relisted_from'>): number {
  const from = listing.relisted_from?.first_seen_at;
  return from !== undefined && from < listing.catalogue_entered_at ? from : listing.catalogue_entered_at;
}

/** The presented first-seen (stores written before the field existed have none: the listing's own then). */
export function firstSeenOf(listing: Pick<StoredListing, 'catalogue_entered_at' | 'relisted_from' | 'first_seen_at'>): number {
  return listing.first_seen_at ?? lineageFirstSeen(listing);
}

/**
 * What a map needs of a listing: its id and the content presentMapPoint reads, and, from a store
 * that keeps it, `map_json`: the UTF-8 bytes of JSON.stringify(presentMapPoint(listing)) written at
 * index time (present.ts mapPointJson).
 */
export type MapPointListing = Pick<StoredListing, 'id' | 'content'> & { readonly map_json?: Buffer };

/**
 * Why a listing left the market, as `/annonces/retirees` and the alerts say it: its status as its
 * site reported it, or `absent` when snapshot loads withdrew it for not holding it any more.
 */
export type WithdrawnReason = Exclude<ListingStatus, 'active'> | 'absent';

export function withdrawnReason(listing: Pick<StoredListing, 'status' | 'absent_loads'>): WithdrawnReason | 'active' {
  return listing.status !== 'active' && (listing.absent_loads ?? 0) > 0 ? 'absent' : listing.status;
}

export const listingId = (source: string, reference: string): string => `${source}:${reference}`;
