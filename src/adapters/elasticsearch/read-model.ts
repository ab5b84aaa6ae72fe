/**
 * The read model on Elasticsearch: each document carries what the API sends, written at index time,
 * so that a result page or a map is a copy of bytes rather than `_source` parsed, presented and
 * serialised again in the API process (docs/architecture.md, "The read model").
 *
 * - `public_bin` (mapping 6): the Annonce text (presentAnnonce, default options) as UTF-8 bytes, a
 *   stored binary field that is neither indexed nor a doc value: read with `stored_fields` by the
 *   pages of 25 to 100 listings and the detail. On the wire it is base64, so a page's response is
 *   ASCII: the client decodes and parses it at its fast path and the bytes go out as they are, where
 *   the text in a keyword (`public_json`, mappings 4 and 5, still read) comes back escaped and
 *   accented, costing the API several times the CPU per page (docs/benchmarks.md);
 * - `map_bin` (mapping 8): the map point's text (presentMapPoint) with its version and coordinates
 *   (map-point-bytes.ts), a binary doc value: a capped map reads 3 000 of them from the columnar doc
 *   values, one doc value a hit, without decompressing any stored document. Mappings 4 to 7 kept the
 *   text alone in `map_json` (still read), the version and the coordinates in their own doc values;
 * - `json_v`: the PUBLIC_JSON_VERSION the texts were written with. A document of another version
 *   (older code wrote it, or the presenter changed since) or of an index without these fields is read
 *   from `_source` and presented here, as before; `npm run indexer -- reindex` rewrites them.
 * - `detail_json` (mapping 5): what the detail reads beside the Annonce text, both fetched as stored
 *   fields by one GET: the version, the status and the access date the route checks, and the price
 *   series the offers with that capability see (withPriceSeries splices it into the Annonce text);
 * - `map_key`, `lat`, `lon` (mapping 5): a pseudo-random key of the listing's id (mapKeyOf), the
 *   order in which a capped map takes the points of each cell of its box, and the coordinates as
 *   plain numbers, which `range` aggregations count the cells by (map-sample-body.ts).
 * - `dedup_bin` (mapping 7): the duplicate scorer's features of an active listing of a block
 *   (feature-bytes.ts), a binary doc value read by the grouping stage's block reads instead of whole
 *   documents (block-candidates.ts).
 *
 * The texts are left out of `_source` (mappings/annonces.json), so they are not stored twice.
 */
import type { estypes } from '@elastic/elasticsearch';
import type { PricePoint } from '../../core/model/annonce.js';
import { PUBLIC_JSON_VERSION, presentAnnonce, presentMapPoint, withPriceSeries, type PresentedDetail } from '../../core/model/present.js';
import type { StoredListing } from '../../core/model/stored.js';
import { blockKeyOf } from '../../core/dedup/block-key.js';
import { featureBytesOf } from '../../core/dedup/feature-bytes.js';
import { mapPointBytesOf, mapPointOfBytes, type MapPointBytes } from './map-point-bytes.js';

export const PUBLIC_JSON_FIELD = 'public_json';
export const PUBLIC_BIN_FIELD = 'public_bin';
export const MAP_JSON_FIELD = 'map_json';
export const MAP_BIN_FIELD = 'map_bin';
export const JSON_VERSION_FIELD = 'json_v';
export const DETAIL_JSON_FIELD = 'detail_json';
export const MAP_KEY_FIELD = 'map_key';
export const LAT_FIELD = 'lat';
export const LON_FIELD = 'lon';
export const DEDUP_BIN_FIELD = 'dedup_bin';

export interface ReadModelFields {
  /** The Annonce text (layouts `texts` and `full`), or its bytes in base64 (`public_bin`, layout `bytes`). */
  public_json?: string;
  public_bin?: string;
  /**
   * Base64 of the map point's UTF-8 text (layouts up to `candidates`), or of its bytes (`map_bin`,
   * map-point-bytes.ts, layout `points`); null without coordinates (never on a map).
   */
  map_json?: string | null;
  map_bin?: string | null;
  json_v: number;
}

/** The text of `detail_json`. */
interface DetailText {
  v: number;
  status: StoredListing['status'];
  catalogue_entered_at: number;
  price_points: PricePoint[];
}

/** The fields of mappings 5 to 7 (ReadModelLayout `full`, `bytes` and `candidates`). */
export interface DetailFields {
  detail_json: string;
  map_key: number;
  /** Both or neither, as `location`. */
  lat?: number;
  lon?: number;
  /** Base64 of the listing's stored features (featureBytesOf), for an active listing of a block (mapping 7). */
  dedup_bin?: string;
}

/**
 * The listing's map key: FNV-1a (32 bits) of its id, its top 31 bits. Stable, spread evenly over
 * [0, 2^31) whatever the ids look like, so the listings of a cell with the smallest keys are a sample
 * of it with nothing in common but their keys.
 */
export function mapKeyOf(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    hash ^= id.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 1) & 0x7fffffff;
}

/**
 * What an index can hold of the read model, by its mapping: nothing (mapping 3 or older), the texts
 * of the pages and the maps (mapping 4), these and the detail's (mapping 5), or the same with the
 * Annonce text as bytes (mapping 6), then the grouping's candidates too (mapping 7), then the map
 * points with their coordinates in one doc value (mapping 8). A document
 * carries what its index holds; what it lacks is read from `_source` until `reindex` builds the
 * current layout.
 */
export type ReadModelLayout = 'none' | 'texts' | 'full' | 'bytes' | 'candidates' | 'points';
const LAYOUT_ORDER: readonly ReadModelLayout[] = ['none', 'texts', 'full', 'bytes', 'candidates', 'points'];

export function readModelFields(listing: StoredListing): ReadModelFields;
export function readModelFields(
  listing: StoredListing,
  layout: 'full' | 'bytes' | 'candidates' | 'points',
  blockKey?: string | null,
): ReadModelFields & DetailFields;
export function readModelFields(listing: StoredListing, layout: ReadModelLayout, blockKey?: string | null): Partial<ReadModelFields & DetailFields>;
/** `blockKey`: the listing's (blockKeyOf), when the caller has it already. */
export function readModelFields(
  listing: StoredListing,
  layout: ReadModelLayout = 'texts',
  blockKey: string | null = blockKeyOf(listing),
): Partial<ReadModelFields & DetailFields> {
  if (layout === 'none') return {};
  const c = listing.content;
  const annonce = JSON.stringify(presentAnnonce(listing));
  const texts: ReadModelFields = {
    ...(layoutHolds(layout, 'bytes') ? { public_bin: Buffer.from(annonce).toString('base64') } : { public_json: annonce }),
    ...mapPointFields(listing, layout),
    json_v: PUBLIC_JSON_VERSION,
  };
  if (layout === 'texts') return texts;
  const detail: DetailText = {
    v: PUBLIC_JSON_VERSION,
    status: listing.status,
    catalogue_entered_at: listing.catalogue_entered_at,
    price_points: listing.price_points,
  };
  const coordinates = c.latitude !== null && c.longitude !== null ? { lat: c.latitude, lon: c.longitude } : {};
  const fields = { ...texts, detail_json: JSON.stringify(detail), map_key: mapKeyOf(listing.id), ...coordinates };
  // The features of the listings a block read returns (active, in a block), as the SQLite store keeps them.
  if (!layoutHolds(layout, 'candidates') || listing.status !== 'active' || blockKey === null) return fields;
  return { ...fields, dedup_bin: featureBytesOf(listing).toString('base64') };
}

/** The map point's field of `layout` (none written without coordinates: such a listing is never on a map). */
function mapPointFields(listing: StoredListing, layout: ReadModelLayout): Pick<ReadModelFields, 'map_json' | 'map_bin'> {
  const { latitude, longitude } = listing.content;
  const point = latitude !== null && longitude !== null ? JSON.stringify(presentMapPoint(listing)) : null;
  if (!layoutHolds(layout, 'points')) return { map_json: point === null ? null : Buffer.from(point).toString('base64') };
  return { map_bin: point === null ? null : mapPointBytesOf(PUBLIC_JSON_VERSION, latitude!, longitude!, point).toString('base64') };
}

/** Whether `layout` holds at least what `least` does. */
export function layoutHolds(layout: ReadModelLayout, least: ReadModelLayout): boolean {
  return LAYOUT_ORDER.indexOf(layout) >= LAYOUT_ORDER.indexOf(least);
}

/** What the detail reads of a document: its stored texts, not `_source`. */
export const DETAIL_STORED_FIELDS = [PUBLIC_BIN_FIELD, PUBLIC_JSON_FIELD, DETAIL_JSON_FIELD];

/**
 * The detail from a document's stored texts (DETAIL_STORED_FIELDS), the series spliced in when asked;
 * null when they are missing or of another version (the caller presents the document whole).
 */
export function presentedOf(id: string, fields: Record<string, unknown[]> | undefined, withPricePoints: boolean): PresentedDetail | null {
  const annonce = annonceTextOf(fields);
  const stored = fields?.[DETAIL_JSON_FIELD]?.[0];
  if (annonce === null || typeof stored !== 'string') return null;
  const detail = JSON.parse(stored) as DetailText;
  if (detail.v !== PUBLIC_JSON_VERSION) return null;
  const text = withPricePoints ? withPriceSeries(annonce, detail.price_points) : annonce;
  return text === null ? null : { id, status: detail.status, catalogue_entered_at: detail.catalogue_entered_at, annonce: text };
}

/** The relisting fields (document.ts), which an index of mapping 3 or older refuses (`dynamic: strict`). */
export const RELISTING_FIELDS = ['relisted_from', 'relisted', 'first_seen_at'] as const;

/**
 * Whether an index mapping has the read-model fields and the relisting fields (an index made from an
 * older mapping file has not): such an index gets neither, and is presented from `_source` until
 * `reindex` builds the current layout.
 */
export function mappingHasReadModel(mapping: estypes.MappingTypeMapping | undefined): boolean {
  const properties = mapping?.properties ?? {};
  const annonce = PUBLIC_JSON_FIELD in properties || PUBLIC_BIN_FIELD in properties;
  const point = MAP_JSON_FIELD in properties || MAP_BIN_FIELD in properties;
  return annonce && point && [JSON_VERSION_FIELD, ...RELISTING_FIELDS].every((field) => field in properties);
}

/** The read model an index mapping can hold (ReadModelLayout). */
export function readModelLayoutOf(mapping: estypes.MappingTypeMapping | undefined): ReadModelLayout {
  if (!mappingHasReadModel(mapping)) return 'none';
  const properties = mapping?.properties ?? {};
  if (![DETAIL_JSON_FIELD, MAP_KEY_FIELD, LAT_FIELD, LON_FIELD].every((field) => field in properties)) return 'texts';
  if (!(PUBLIC_BIN_FIELD in properties)) return 'full';
  if (!(DEDUP_BIN_FIELD in properties)) return 'bytes';
  return MAP_BIN_FIELD in properties ? 'points' : 'candidates';
}

/** The layout every index of a set holds (the least of theirs). */
export function commonLayout(layouts: readonly ReadModelLayout[]): ReadModelLayout {
  return layouts.reduce<ReadModelLayout>((least, layout) => (layoutHolds(layout, least) ? least : layout), 'points');
}

/** The absence counts of the snapshot loads and their pass (StoredListing.absent_loads, absent_at), doc values. */
export const ABSENT_LOADS_FIELD = 'absent_loads';
export const ABSENT_AT_FIELD = 'absent_at';

/** Whether an index mapping can keep the absence counts (an index made from mapping version 3 or older cannot). */
export function mappingHasAbsences(mapping: estypes.MappingTypeMapping | undefined): boolean {
  const properties = mapping?.properties ?? {};
  return ABSENT_LOADS_FIELD in properties && ABSENT_AT_FIELD in properties;
}

/**
 * Request parts of a result page: no `_source`; the Annonce text, and from doc values the listing's
 * status, its change position and its withdrawal date (what the flows' items and their followers read).
 */
export const PRESENTED_PAGE_FIELDS = {
  _source: false,
  stored_fields: [PUBLIC_BIN_FIELD, PUBLIC_JSON_FIELD],
  docvalue_fields: [
    JSON_VERSION_FIELD,
    'status',
    'change_seq',
    { field: 'changed_at', format: 'epoch_millis' },
    { field: 'left_market_at', format: 'epoch_millis' },
  ],
} satisfies Partial<estypes.SearchRequest>;

/**
 * The doc values of a map point: its one field (mapping 8), or what older mappings kept (the text and
 * its version; the coordinates, for a read that finds each point's cell). A field the index lacks is
 * ignored by the node, so a request of any form also reads an index of the current mapping; the
 * current form's finds nothing in an older one.
 */
export const MAP_POINT_DOC_VALUES = [MAP_BIN_FIELD];
export const ANY_FORM_MAP_TEXT_DOC_VALUES = [MAP_BIN_FIELD, JSON_VERSION_FIELD, MAP_JSON_FIELD];
export const ANY_FORM_MAP_POINT_DOC_VALUES = [...ANY_FORM_MAP_TEXT_DOC_VALUES, LAT_FIELD, LON_FIELD];

/** Request parts of a map: the points from doc values (`docvalue_fields` one of the two above), nothing stored read (not even `_id`). */
export function presentedMapFields(docValues: readonly string[]) {
  return { _source: false, stored_fields: '_none_', docvalue_fields: [...docValues] } satisfies Partial<estypes.SearchRequest>;
}

type HitFields = Record<string, unknown[]> | undefined;

/** The current-version Annonce text of a page hit (UTF-8 bytes), or null (older document: read it whole). */
export function publicJsonOf(fields: HitFields): Buffer | null {
  if (fields?.[JSON_VERSION_FIELD]?.[0] !== PUBLIC_JSON_VERSION) return null;
  return annonceTextOf(fields);
}

/** The Annonce text a document stores, whichever field its mapping holds it in (no version check). */
function annonceTextOf(fields: HitFields): Buffer | null {
  const bytes = fields?.[PUBLIC_BIN_FIELD]?.[0];
  if (typeof bytes === 'string') return Buffer.from(bytes, 'base64');
  const text = fields?.[PUBLIC_JSON_FIELD]?.[0];
  return typeof text === 'string' ? Buffer.from(text) : null;
}

/**
 * The current-version map point of a map hit, its coordinates (NaN where an older index lacks them)
 * and its text; null when the hit has none (a document of an older form or version, or fields not asked).
 */
export function mapPointOf(fields: HitFields): MapPointBytes | null {
  const bytes = fields?.[MAP_BIN_FIELD]?.[0];
  if (typeof bytes === 'string') return mapPointOfBytes(Buffer.from(bytes, 'base64'), PUBLIC_JSON_VERSION);
  if (fields?.[JSON_VERSION_FIELD]?.[0] !== PUBLIC_JSON_VERSION) return null;
  const text = fields[MAP_JSON_FIELD]?.[0];
  if (typeof text !== 'string') return null;
  return { latitude: Number(fields[LAT_FIELD]?.[0]), longitude: Number(fields[LON_FIELD]?.[0]), text: Buffer.from(text, 'base64') };
}

/** A doc value read with `format: epoch_millis` comes back as a string of digits. */
export function epochMillisOf(fields: HitFields, field: string): number | null {
  const value = fields?.[field]?.[0];
  if (value === undefined || value === null) return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/**
 * What the node sends back of a page and of a map (`filter_path`): the hits' fields and what the
 * reader uses beside them, not each hit's index name and score. A map's 2 000 hits are then their
 * texts alone. With no hit, the node sends `{}` (no `hits` at all).
 */
export const PAGE_RESPONSE_FILTER = ['hits.hits._id', 'hits.hits.fields', 'hits.hits.sort'];
export const MAP_RESPONSE_FILTER = ['hits.total', 'hits.hits.fields'];
