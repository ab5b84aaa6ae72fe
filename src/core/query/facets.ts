/**
 * Facets of a search (docs/api.md "Facets"): the listings of the whole query counted by value
 * (`type`, `pieces`, `dpe`, `source`) or by fixed ranges (`prix`, `surface`). Each facet is counted
 * with every filter of the query except its own, so a client shows how many listings each other
 * choice would give. The definitions are here so that both engines and the tests count one way.
 */
import { FILTERS, fieldsOf, type FilterName } from './filters.js';
import type { ListingFilter, Scope } from './query.js';

export const FACET_NAMES = ['type', 'pieces', 'dpe', 'prix', 'surface', 'source'] as const;
export type FacetName = (typeof FACET_NAMES)[number];

/** Most values a value facet lists, most frequent first; the rest are counted in `other`. */
export const FACET_VALUE_LIMIT = 200;

/** A range from its lower bound (included) to its upper bound (excluded; null: none). */
export interface FacetRange {
  from: number;
  to: number | null;
}

const rangesFrom = (bounds: readonly number[]): FacetRange[] => bounds.map((from, i) => ({ from, to: i + 1 < bounds.length ? bounds[i + 1] : null }));

/** Sale prices, in euros; a rent search (`transaction=location`) counts monthly rents instead. */
export const SALE_PRICE_RANGES = rangesFrom([0, 100_000, 200_000, 300_000, 500_000, 750_000, 1_000_000]);
export const RENT_PRICE_RANGES = rangesFrom([0, 500, 750, 1_000, 1_500, 2_000, 3_000]);
/** Living surface, in m2. */
export const SURFACE_RANGES = rangesFrom([0, 25, 50, 75, 100, 150, 200]);

export interface FacetsQuery {
  filter: ListingFilter;
  scope: Scope;
  grouped: boolean;
  facets: readonly FacetName[];
}

export type FacetKind = 'value' | 'range';

export const facetKind = (name: FacetName): FacetKind => (name === 'prix' || name === 'surface' ? 'range' : 'value');

/** The ranges of a range facet for this filter. */
export function facetRanges(name: 'prix' | 'surface', filter: ListingFilter): FacetRange[] {
  if (name === 'surface') return SURFACE_RANGES;
  return filter.transaction === 'location' ? RENT_PRICE_RANGES : SALE_PRICE_RANGES;
}

export interface ValueCount {
  value: string | number;
  count: number;
}

export interface RangeCount extends FacetRange {
  count: number;
}

/**
 * One facet's counts: `buckets` + `other` (values past FACET_VALUE_LIMIT) + `unknown` (no value)
 * is every listing of the query without the facet's own filter.
 */
export type FacetCounts = { kind: 'value'; buckets: ValueCount[]; other: number; unknown: number } | { kind: 'range'; buckets: RangeCount[]; unknown: number };

export interface FacetsResult {
  /** Listings of the whole query, every filter applied (those a walk of its pages returns). */
  total: number;
  facets: Partial<Record<FacetName, FacetCounts>>;
}

/** The filter of the table (filters.ts) each facet counts the values of; the source facet's own filter is the scope's site filter. */
const FACET_FILTERS: Record<FacetName, FilterName | null> = { type: 'type', pieces: 'pieces', dpe: 'dpe', prix: 'prix', surface: 'surface', source: null };

/** The ListingFilter fields of a facet's own filter. */
function ownFields(name: FacetName): (keyof ListingFilter)[] {
  const own = FACET_FILTERS[name];
  const entry = FILTERS.find((filter) => filter.name === own);
  return entry ? fieldsOf(entry) : [];
}

/** The filter without a facet's own conditions (the source facet's own is the scope's site filter). */
export function withoutOwnFilter(filter: ListingFilter, name: FacetName): ListingFilter {
  const without = { ...filter };
  for (const field of ownFields(name)) delete without[field];
  return without;
}

/** Only a facet's own conditions of the filter (none for the source facet: its own is in the scope). */
export function ownFilter(filter: ListingFilter, name: FacetName): ListingFilter {
  return Object.fromEntries(ownFields(name).map((field) => [field, filter[field]]));
}

/** The scope a facet counts in: every site for the source facet (its own filter), else the query's. */
export function facetScope(scope: Scope, name: FacetName): Scope {
  return name === 'source' ? { ...scope, eligibleSites: null } : scope;
}

/** Value buckets in the order both engines give: most frequent first, then by value; the rest in `other`. */
export function rankValues(counts: readonly ValueCount[]): { buckets: ValueCount[]; other: number } {
  const sorted = [...counts].sort((a, b) => b.count - a.count || compareValues(a.value, b.value));
  const buckets = sorted.slice(0, FACET_VALUE_LIMIT);
  const other = sorted.slice(FACET_VALUE_LIMIT).reduce((sum, bucket) => sum + bucket.count, 0);
  return { buckets, other };
}

function compareValues(a: string | number, b: string | number): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

/**
 * One facet's counts from an engine's keyed counts: a value facet's keys are its values, a range
 * facet's keys the indexes of its ranges (facetRanges); a null key counts the listings without a value.
 */
export function facetCounts(
  name: FacetName,
  filter: ListingFilter,
  keyed: readonly { key: string | number | null; count: number }[],
  /** Listings with a value the engine did not list (Elasticsearch's `sum_other_doc_count`). */
  unlisted = 0,
): FacetCounts {
  const unknown = keyed.filter((row) => row.key === null).reduce((sum, row) => sum + row.count, 0);
  const known = keyed.filter((row): row is { key: string | number; count: number } => row.key !== null && row.count > 0);
  if (name === 'prix' || name === 'surface') {
    const buckets = facetRanges(name, filter).map((range, index) => ({
      ...range,
      count: known.filter((row) => Number(row.key) === index).reduce((sum, row) => sum + row.count, 0),
    }));
    return { kind: 'range', buckets, unknown };
  }
  const ranked = rankValues(known.map((row) => ({ value: row.key, count: row.count })));
  return { kind: 'value', buckets: ranked.buckets, other: ranked.other + unlisted, unknown };
}
