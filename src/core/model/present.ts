/**
 * Presenters: the only way stored listings leave the service. They write the public fields of
 * docs/api.md in order, `null` for the unknown, `seller_contact` always null, and never an internal
 * field. `price_history.points` leaves only when the caller asks for it (detail, eligible offer).
 */
import { ANNONCE_FIELDS, type Annonce, type AnnonceMapPoint, type PriceHistory, type PricePoint } from './annonce.js';
import { firstSeenOf, withdrawnReason, type MapPointListing, type StoredListing } from './stored.js';

/**
 * Version of what presentAnnonce (default options) and presentMapPoint write. A store that keeps
 * the JSON texts of each listing's Annonce and map point (`public_json`, `map_json`, written at index
 * time) serves them only while the version they were written with equals this one: bump it whenever
 * either output changes, and `npm run indexer -- reindex` writes the texts again.
 * 2: `map_json` added.
 * 3: `sources[].is_main` marks the group's main site, not the listing shown.
 * 4: `first_seen_at` and `relisted_from` (relisted properties keep their history).
 */
export const PUBLIC_JSON_VERSION = 4;

export interface PresentOptions {
  /** Include the full price series (detail endpoint, offers with the price-series capability). */
  withPricePoints?: boolean;
}

export function presentAnnonce(listing: StoredListing, options: PresentOptions = {}): Annonce {
  const content = listing.content as unknown as Record<string, unknown>;
  const computed: Partial<Record<keyof Annonce, unknown>> = {
    // Privacy rules restated at the boundary, whatever the store holds.
    seller_name: listing.content.seller_type === 'Particulier' ? null : listing.content.seller_name,
    seller_contact: null,
    price_history: presentPriceHistory(listing.price_points, options.withPricePoints ?? false),
    dedup_key: listing.dedup_key,
    sources: presentSources(listing),
    first_seen_at: new Date(firstSeenOf(listing)).toISOString(),
    relisted_from: presentRelistedFrom(listing),
  };
  // the documented order, whatever order the stored content has; unknown values are null.
  const annonce: Record<string, unknown> = {};
  for (const field of ANNONCE_FIELDS) annonce[field] = field in computed ? computed[field] : (content[field] ?? null);
  for (const [field, site] of Object.entries(listing.completed_from)) annonce[`${field}_source`] = site;
  return annonce as Annonce;
}

/**
 * The group's members, best-ranked site first; `is_main` marks that first one, the group's main site,
 * the same on every member whichever of them is shown (a filtered search, `dedup=0`, the feed).
 */
function presentSources(listing: StoredListing): Annonce['sources'] {
  const members = listing.group_members;
  if (!members || members.length < 2) return null;
  return members.map((member, rank) => ({
    source: member.source,
    reference: member.reference,
    url: member.url,
    price: member.price,
    is_main: rank === 0,
  }));
}

/** The earlier listing of a relisting, without the internal first-seen (the listing's own `first_seen_at` shows it). */
function presentRelistedFrom(listing: StoredListing): Annonce['relisted_from'] {
  const from = listing.relisted_from;
  if (!from) return null;
  return { source: from.source, reference: from.reference, withdrawn_at: new Date(from.withdrawn_at).toISOString(), price: from.price };
}

/** docs/api.md price_history: `previous` is null while the price never moved; `depth` 2 without the series. */
export function presentPriceHistory(points: readonly PricePoint[], withPoints: boolean): PriceHistory | null {
  if (points.length === 0) return null;
  const last = points[points.length - 1];
  const beforeLast = points.length > 1 ? points[points.length - 2] : null;
  const history: PriceHistory = {
    current: last.price,
    previous: beforeLast ? beforeLast.price : null,
    changed_at: last.at,
    changes: points.length - 1,
    tracked_since: points[0].at,
    depth: withPoints ? points.length : 2,
  };
  if (withPoints) history.points = points.map((p) => ({ at: p.at, price: p.price }));
  return history;
}

export function presentMapPoint(listing: Pick<StoredListing, 'content'>): AnnonceMapPoint {
  const c = listing.content;
  return {
    source: c.source,
    reference: c.reference,
    latitude: c.latitude,
    longitude: c.longitude,
    price: c.price,
    price_per_m2: c.price_per_m2,
    surface: c.surface,
    price_per_m2_color: c.price_per_m2_color,
    type: c.type,
    title: c.title,
    city: c.city,
    postal_code: c.postal_code,
    image: c.images[0] ?? null,
    rooms: c.rooms,
    is_internal: c.is_internal,
  };
}

/**
 * The JSON text of presentMapPoint(listing): the store's precomputed text when it has one (SQLite),
 * else serialised now. 2 000 points then cost copying bytes, not building and serialising objects.
 */
export function mapPointJson(listing: MapPointListing): JsonText {
  return listing.map_json ?? JSON.stringify(presentMapPoint(listing));
}

/** A JSON text, as a string or as its UTF-8 bytes. */
export type JsonText = string | Buffer;

/**
 * A listing's detail as the API sends it (GET /annonces/{source}/{reference}, ListingReader
 * getPresented): what the route checks (status, access period) and the Annonce text.
 */
export interface PresentedDetail {
  id: string;
  status: StoredListing['status'];
  catalogue_entered_at: number;
  annonce: JsonText;
}

/** The detail of a listing read whole (a store without current texts for it). */
export function presentedWhole(listing: StoredListing | null, options: PresentOptions): PresentedDetail | null {
  if (!listing) return null;
  const { id, status, catalogue_entered_at } = listing;
  return { id, status, catalogue_entered_at, annonce: JSON.stringify(presentAnnonce(listing, options)) };
}

/**
 * The JSON text of presentAnnonce(listing): the store's precomputed text when it has one (SQLite,
 * written at index time, read as UTF-8 bytes), else serialised now. A page of 25 to 100 listings
 * then costs copying bytes instead of parsing each stored document, presenting it and serialising
 * it again.
 */
export function annonceJson(listing: StoredListing): JsonText {
  return listing.public_json ?? JSON.stringify(presentAnnonce(listing));
}

/**
 * The detail's Annonce text with the full price series (`presentAnnonce(listing, { withPricePoints:
 * true })`) from the stored text of the default options: the two differ only in `price_history`,
 * whose default text is replaced by the one with the points. A key is never found inside a string
 * value (a quote there is escaped), so the first `"price_history":` is the field. Null when the
 * text does not hold the default history of these points (the caller presents the listing whole).
 */
export function withPriceSeries(annonce: JsonText, points: readonly PricePoint[]): JsonText | null {
  if (points.length === 0) return annonce;
  const text = typeof annonce === 'string' ? annonce : annonce.toString('utf8');
  const stored = `"price_history":${JSON.stringify(presentPriceHistory(points, false))}`;
  const at = text.indexOf('"price_history":');
  if (at < 0 || !text.startsWith(stored, at)) return null;
  return `${text.slice(0, at)}"price_history":${JSON.stringify(presentPriceHistory(points, true))}${text.slice(at + stored.length)}`;
}

/**
 * Items of `/annonces/retirees`: the Annonce text plus when and why it left (docs/architecture.md):
 * `reason` is the status its site reported, or `absent` (withdrawnReason).
 */
export function withdrawnJson(listing: StoredListing): JsonText {
  const annonce = annonceJson(listing);
  const withdrawnAt = listing.left_market_at !== null ? new Date(listing.left_market_at).toISOString() : null;
  const extra = `,"withdrawn_at":${JSON.stringify(withdrawnAt)},"reason":${JSON.stringify(withdrawnReason(listing))}}`;
  // Both forms end with the Annonce object's closing brace, replaced by the two fields and a new one.
  return typeof annonce === 'string' ? annonce.slice(0, -1) + extra : Buffer.concat([annonce.subarray(0, -1), Buffer.from(extra)]);
}
