/**
 * The read model on Elasticsearch: each document carries what the API sends, written at index time,
 * so that a result page or a map is a copy of bytes rather than `_source` parsed, presented and
 * serialised again in the API process (docs/architecture.md, "The read model").
 *
 * - `public_json`: the Annonce text (presentAnnonce, default options), a stored keyword that is
 *   neither indexed nor a doc value: read with `stored_fields` by the pages of 25 to 100 listings;
 * - `map_json`: the map point's text (presentMapPoint), a binary doc value: a map reads 2 000 of them
 *   from the columnar doc values, without decompressing any stored document;
 * - `json_v`: the PUBLIC_JSON_VERSION the two texts were written with. A document of another version
 *   (older code wrote it, or the presenter changed since) or of an index without these fields is read
 *   from `_source` and presented here, as before; `npm run indexer -- reindex` rewrites them.
 *
 * Both texts are left out of `_source` (mappings/annonces.json), so they are not stored twice.
 */
import type { estypes } from '@elastic/elasticsearch';
import { PUBLIC_JSON_VERSION, presentAnnonce, presentMapPoint } from '../../core/model/present.js';
import type { StoredListing } from '../../core/model/stored.js';

export const PUBLIC_JSON_FIELD = 'public_json';
export const MAP_JSON_FIELD = 'map_json';
export const JSON_VERSION_FIELD = 'json_v';

export interface ReadModelFields {
  public_json: string;
  /** Base64 of the UTF-8 text (a binary field's value); null without coordinates (never on a map). */
  map_json: string | null;
  json_v: number;
}

export function readModelFields(listing: StoredListing): ReadModelFields {
  const c = listing.content;
  return {
    public_json: JSON.stringify(presentAnnonce(listing)),
    map_json: c.latitude !== null && c.longitude !== null ? Buffer.from(JSON.stringify(presentMapPoint(listing))).toString('base64') : null,
    json_v: PUBLIC_JSON_VERSION,
  };
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
  return [PUBLIC_JSON_FIELD, MAP_JSON_FIELD, JSON_VERSION_FIELD, ...RELISTING_FIELDS].every((field) => field in properties);
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
  stored_fields: [PUBLIC_JSON_FIELD],
  docvalue_fields: [
    JSON_VERSION_FIELD,
    'status',
    'change_seq',
    { field: 'changed_at', format: 'epoch_millis' },
    { field: 'left_market_at', format: 'epoch_millis' },
  ],
} satisfies Partial<estypes.SearchRequest>;

/** Request parts of a map: the points' texts from doc values, nothing stored read (not even `_id`). */
export const PRESENTED_MAP_FIELDS = {
  _source: false,
  stored_fields: '_none_',
  docvalue_fields: [JSON_VERSION_FIELD, MAP_JSON_FIELD],
} satisfies Partial<estypes.SearchRequest>;

type HitFields = Record<string, unknown[]> | undefined;

/** The current-version Annonce text of a page hit, or null (older document: read it whole). */
export function publicJsonOf(fields: HitFields): string | null {
  if (fields?.[JSON_VERSION_FIELD]?.[0] !== PUBLIC_JSON_VERSION) return null;
  const text = fields[PUBLIC_JSON_FIELD]?.[0];
  return typeof text === 'string' ? text : null;
}

/** The current-version map point text of a map hit (UTF-8 bytes), or null. */
export function mapJsonOf(fields: HitFields): Buffer | null {
  if (fields?.[JSON_VERSION_FIELD]?.[0] !== PUBLIC_JSON_VERSION) return null;
  const text = fields[MAP_JSON_FIELD]?.[0];
  return typeof text === 'string' ? Buffer.from(text, 'base64') : null;
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
export const MAP_RESPONSE_FILTER = ['hits.total', 'hits.hits.fields', 'aggregations.cells.buckets.doc_count'];
