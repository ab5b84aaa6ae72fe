/**
 * The totals of a capped map's cells (src/core/query/map-sampling.ts) in one request without hits:
 * the map's query without its box, and one `filters` bucket per cell, each the map's box clause of
 * that cell (boxClause: inclusive edges, across the antimeridian as the map reads it).
 */
import type { BoundingBox, MapQuery } from '../../core/query/query.js';
import { boxClause } from './map-body.js';
import { boolQuery, filterClauses, searchScope } from './query-clauses.js';
import type { SearchBody } from './search-body.js';

export function buildMapCellsBody(query: MapQuery, cells: readonly BoundingBox[]): SearchBody {
  const scope = searchScope(query.scope, query.grouped);
  return {
    query: boolQuery([...scope.filter, boxClause(query.bbox), ...filterClauses(query.filter)], scope.mustNot),
    size: 0,
    track_total_hits: false,
    aggs: { cells: { filters: { filters: cells.map(boxClause) } } },
  };
}

/** The cells' totals, in the order of the cells. */
export function cellTotalsOf(aggregations: Record<string, unknown> | undefined): number[] {
  const cells = aggregations?.cells as { buckets: { doc_count: number }[] } | undefined;
  return (cells?.buckets ?? []).map((bucket) => bucket.doc_count);
}
