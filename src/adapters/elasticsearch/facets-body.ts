/**
 * A search's facets (src/core/query/facets.ts) as one Elasticsearch request without hits. The query
 * holds the filters no requested facet owns; each facet is a `filter` aggregation adding the scope
 * it counts in and the other facets' own filters, around a `terms` (values) or `range` aggregation
 * and a `missing` one (unknown). `total` adds every own filter and the scope. Counts are doc counts:
 * exact on one shard, and exact on several while a facet has fewer values than the shard size.
 */
import type { estypes } from '@elastic/elasticsearch';
import type { ListingFilter } from '../../core/query/query.js';
import type { FacetName, FacetsQuery, FacetsResult } from '../../core/query/facets.js';
import { FACET_VALUE_LIMIT, facetCounts, facetRanges, facetScope, ownFilter, withoutOwnFilter } from '../../core/query/facets.js';
import { boolQuery, filterClauses, searchScope, type Clause } from './query-clauses.js';
import type { SearchBody } from './search-body.js';

export const FACET_FIELDS: Record<FacetName, string> = {
  type: 'type_norm',
  pieces: 'content.rooms',
  dpe: 'content.dpe',
  prix: 'content.price',
  surface: 'content.surface',
  source: 'content.source',
};

/** The own conditions of `names`, as clauses. */
function ownClauses(filter: ListingFilter, names: readonly FacetName[]): Clause[] {
  return names.flatMap((name) => filterClauses(ownFilter(filter, name)));
}

function countsOf(name: FacetName, filter: ListingFilter): Record<string, estypes.AggregationsAggregationContainer> {
  const field = FACET_FIELDS[name];
  const unknown = { missing: { field } };
  if (name === 'prix' || name === 'surface') {
    const ranges = facetRanges(name, filter).map((range) => (range.to === null ? { from: range.from } : { from: range.from, to: range.to }));
    return { ranges: { range: { field, ranges } }, unknown };
  }
  return { values: { terms: { field, size: FACET_VALUE_LIMIT, shard_size: FACET_VALUE_LIMIT * 5 } }, unknown };
}

export function buildFacetsBody(query: FacetsQuery): SearchBody {
  const common = query.facets.reduce(withoutOwnFilter, query.filter);
  const scoped = (name: FacetName | null): Clause => {
    const scope = searchScope(name ? facetScope(query.scope, name) : query.scope, query.grouped);
    const others = query.facets.filter((other) => other !== name);
    return boolQuery([...scope.filter, ...ownClauses(query.filter, others)], scope.mustNot);
  };
  const aggs: Record<string, estypes.AggregationsAggregationContainer> = { total: { filter: scoped(null) } };
  for (const name of query.facets) aggs[name] = { filter: scoped(name), aggs: countsOf(name, query.filter) };
  return { query: boolQuery(filterClauses(common)), size: 0, track_total_hits: false, aggs };
}

interface CountedBucket {
  key: string | number;
  doc_count: number;
}

interface FacetAggregation {
  doc_count: number;
  values?: { buckets: CountedBucket[]; sum_other_doc_count?: number };
  ranges?: { buckets: CountedBucket[] };
  unknown: { doc_count: number };
}

/** The answer of buildFacetsBody as the engine-neutral result. */
export function facetsOf(query: FacetsQuery, aggregations: Record<string, unknown> | undefined): FacetsResult {
  const read = (name: string) => aggregations?.[name] as FacetAggregation | undefined;
  const result: FacetsResult = { total: read('total')?.doc_count ?? 0, facets: {} };
  for (const name of query.facets) {
    const aggregation = read(name);
    const listed = aggregation?.values?.buckets ?? [];
    // A range bucket's key is its index: the ranges come back in the order they were asked.
    const keyed: { key: string | number | null; count: number }[] = aggregation?.ranges
      ? aggregation.ranges.buckets.map((bucket, index) => ({ key: index, count: bucket.doc_count }))
      : listed.map((bucket) => ({ key: bucket.key, count: bucket.doc_count }));
    keyed.push({ key: null, count: aggregation?.unknown.doc_count ?? 0 });
    result.facets[name] = facetCounts(name, query.filter, keyed, aggregation?.values?.sum_other_doc_count ?? 0);
  }
  return result;
}
