/**
 * The filter table: every `/annonces` filter declared once, with the query parameters that set it,
 * its kind, the stored key it reads (stored-keys.ts) and the ListingFilter fields that carry its
 * values. filterConditions turns a ListingFilter into engine-neutral conditions in the table's
 * order; each engine renders conditions generically (the SQLite adapter's read/filter-sql.ts, the
 * Elasticsearch adapter's query-clauses.ts, the notifier's listing-match.ts), so a filter is added
 * here and nowhere else, except for a rendering hint an engine needs (docs/architecture.md
 * "The filter table").
 *
 * How values compare follows from the kind: `term` and `boolean` equal, `terms` any of the values,
 * `range` within inclusive bounds (a listing whose value is unknown never satisfies a bound),
 * `text` every word a token of the title or the description, `geo` inside the polygon or circle.
 * Names compare folded: the key is a folded key and the routes fold the query's values.
 */
import type { GeoArea } from './geo.js';
import type { ListingFilter } from './query.js';
import type { StoredKey } from './stored-keys.js';

/** An engine-neutral condition on a listing's stored keys. */
export type Condition =
  | { op: 'equals'; key: StoredKey; value: string | number | boolean }
  | { op: 'oneOf'; key: StoredKey; values: readonly (string | number)[] }
  /** min <= value <= max, either bound optional; an unknown value never satisfies a bound. */
  | { op: 'range'; key: StoredKey; min?: number; max?: number }
  /** The key holds a list that contains none of the values. */
  | { op: 'noneOf'; key: StoredKey; values: readonly string[] }
  /** The listing's position (`content.latitude`, `content.longitude`) is inside the area. */
  | { op: 'area'; area: GeoArea }
  /** Every word is a token of the title or of the description (textTokens). */
  | { op: 'words'; words: readonly string[] };

/** What a filter may ask: everything but exclusions, which only the scope makes. */
export type FilterCondition = Exclude<Condition, { op: 'noneOf' }>;

/** The ListingFilter fields whose values are of type T. */
type FieldOf<T> = { [K in keyof ListingFilter]-?: NonNullable<ListingFilter[K]> extends T ? K : never }[keyof ListingFilter];

export type FilterKind = FilterEntry['kind'];

export type FilterEntry = {
  /** The filter's name (the stem of its parameters), for the engines' rendering hints. */
  name: string;
  /** The query parameters that set it (src/api/routes/shared/listing-filter.ts, area-params.ts). */
  params: readonly string[];
} & (
  | { kind: 'term'; key: StoredKey; value: FieldOf<string | number> }
  | { kind: 'terms'; key: StoredKey; values: FieldOf<readonly (string | number)[]> }
  | { kind: 'range'; key: StoredKey; min?: FieldOf<number>; max?: FieldOf<number> }
  | { kind: 'boolean'; key: StoredKey; value: FieldOf<boolean> }
  | { kind: 'text'; value: FieldOf<readonly string[]> }
  | { kind: 'geo'; value: FieldOf<GeoArea> }
);

/**
 * The filters, in the order every engine writes their conditions (the golden statements and bodies
 * of test/adapters read in this order). `q` and the area have dedicated renderers (the full-text
 * plans of the embedded store, the R*Tree and geo queries) but are declared here like the others.
 */
export const FILTERS = [
  { name: 'type', params: ['type'], kind: 'terms', key: 'type_norm', values: 'types' },
  { name: 'transaction', params: ['transaction'], kind: 'term', key: 'content.transaction_type', value: 'transaction' },
  { name: 'ville', params: ['ville'], kind: 'terms', key: 'city_norm', values: 'cities' },
  { name: 'cp', params: ['cp'], kind: 'term', key: 'content.postal_code', value: 'postalCode' },
  { name: 'dept', params: ['dept'], kind: 'term', key: 'content.department', value: 'department' },
  { name: 'region', params: ['region'], kind: 'term', key: 'region_norm', value: 'region' },
  { name: 'prix', params: ['prix_min', 'prix_max'], kind: 'range', key: 'content.price', min: 'priceMin', max: 'priceMax' },
  { name: 'prix_m2', params: ['prix_m2_min', 'prix_m2_max'], kind: 'range', key: 'content.price_per_m2', min: 'pricePerM2Min', max: 'pricePerM2Max' },
  { name: 'surface', params: ['surface_min', 'surface_max'], kind: 'range', key: 'content.surface', min: 'surfaceMin', max: 'surfaceMax' },
  { name: 'pieces', params: ['pieces_min'], kind: 'range', key: 'content.rooms', min: 'roomsMin' },
  { name: 'chambres', params: ['chambres_min'], kind: 'range', key: 'content.bedrooms', min: 'bedroomsMin' },
  { name: 'annee', params: ['annee_min', 'annee_max'], kind: 'range', key: 'content.year_built', min: 'yearMin', max: 'yearMax' },
  { name: 'dpe', params: ['dpe'], kind: 'terms', key: 'content.dpe', values: 'dpe' },
  { name: 'ges', params: ['ges'], kind: 'terms', key: 'content.ges', values: 'ges' },
  { name: 'updated_since', params: ['updated_since'], kind: 'range', key: 'updated_at', min: 'updatedSince' },
  { name: 'created_since', params: ['created_since'], kind: 'range', key: 'published_at', min: 'createdSince' },
  { name: 'relistee', params: ['relistee'], kind: 'boolean', key: 'relisted', value: 'relisted' },
  { name: 'area', params: ['polygone', 'centre', 'rayon_km'], kind: 'geo', value: 'area' },
  { name: 'q', params: ['q'], kind: 'text', value: 'words' },
] as const satisfies readonly FilterEntry[];

export type FilterName = (typeof FILTERS)[number]['name'];

/** A filter the query sets, and its condition. */
export interface ActiveFilter {
  entry: FilterEntry;
  condition: FilterCondition;
}

/** The ListingFilter fields a filter reads (what a facet leaves out to count its own values). */
export function fieldsOf(entry: FilterEntry): (keyof ListingFilter)[] {
  switch (entry.kind) {
    case 'terms':
      return [entry.values];
    case 'range':
      return [entry.min, entry.max].filter((field) => field !== undefined);
    default:
      return [entry.value];
  }
}

/** The condition of one filter, or null when the query does not set it (an empty list or text sets nothing). */
export function conditionOf(entry: FilterEntry, filter: ListingFilter): FilterCondition | null {
  switch (entry.kind) {
    case 'term': {
      const value = filter[entry.value];
      return value === undefined || value === '' ? null : { op: 'equals', key: entry.key, value };
    }
    case 'boolean': {
      const value = filter[entry.value];
      return value === undefined ? null : { op: 'equals', key: entry.key, value };
    }
    case 'terms': {
      const values = filter[entry.values];
      return values?.length ? { op: 'oneOf', key: entry.key, values } : null;
    }
    case 'range': {
      const min = entry.min === undefined ? undefined : filter[entry.min];
      const max = entry.max === undefined ? undefined : filter[entry.max];
      if (min === undefined && max === undefined) return null;
      return { op: 'range', key: entry.key, ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }) };
    }
    case 'text': {
      const words = filter[entry.value];
      return words?.length ? { op: 'words', words } : null;
    }
    case 'geo': {
      const area = filter[entry.value];
      return area ? { op: 'area', area } : null;
    }
  }
}

/** The filters a query sets, in the table's order. */
export function filterConditions(filter: ListingFilter, table: readonly FilterEntry[] = FILTERS): ActiveFilter[] {
  const active: ActiveFilter[] = [];
  for (const entry of table) {
    const condition = conditionOf(entry, filter);
    if (condition) active.push({ entry, condition });
  }
  return active;
}
