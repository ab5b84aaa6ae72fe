/**
 * A capped map spread over its box on an index of an older mapping, whose documents carry neither the
 * plain coordinates nor `map_key` that map-sample-body.ts reads (mapping 4 or older), in two requests:
 * - the cells' listings (`cellCountsAggs`): one `filters` bucket per cell, each the map's box clause
 *   of that cell (inclusive edges, across the antimeridian as the map reads it);
 * - each cell's share (`buildCellPointsBody`): one `filter` aggregation per cell with a `top_hits` of
 *   its quota, in index order, the map points' texts from doc values as the map reads them
 *   (read-model.ts). No hit of its own.
 * `top_hits` returns at most `index.max_inner_result_window` hits (mappings/annonces.json raises it
 * to the map's limit): on an index made before, the store reads cell by cell instead.
 */
import type { estypes } from '@elastic/elasticsearch';
import type { BoundingBox, MapQuery } from '../../core/query/query.js';
import { boxClause } from './map-body.js';
import { boolQuery, filterClauses, searchScope } from './query-clauses.js';
import { ANY_FORM_MAP_TEXT_DOC_VALUES, mapPointOf } from './read-model.js';
import type { SearchBody } from './search-body.js';

/** The cells' totals, as aggregations of a request of the box. */
export function cellCountsAggs(cells: readonly BoundingBox[]): Record<string, estypes.AggregationsAggregationContainer> {
  return { cells: { filters: { filters: cells.map(boxClause) } } };
}

/** The cells' totals, in the order of the cells. */
export function cellTotalsOf(aggregations: Record<string, unknown> | undefined): number[] {
  const cells = aggregations?.cells as { buckets: { doc_count: number }[] } | undefined;
  return (cells?.buckets ?? []).map((bucket) => bucket.doc_count);
}

const cellName = (index: number) => `c${index}`;

/** Each cell with a quota: its points, at most its quota, in index order. */
export function buildCellPointsBody(query: MapQuery, cells: readonly BoundingBox[], quotas: readonly number[]): SearchBody {
  const scope = searchScope(query.scope, query.grouped);
  const aggs: Record<string, estypes.AggregationsAggregationContainer> = {};
  cells.forEach((cell, i) => {
    if (quotas[i] <= 0) return;
    aggs[cellName(i)] = {
      filter: boxClause(cell),
      aggs: { points: { top_hits: { size: quotas[i], sort: ['_doc'], _source: false, docvalue_fields: ANY_FORM_MAP_TEXT_DOC_VALUES } } },
    };
  });
  return {
    query: boolQuery([...scope.filter, boxClause(query.bbox), ...filterClauses(query.filter)], scope.mustNot),
    size: 0,
    track_total_hits: false,
    aggs,
  };
}

/** What the node sends back of it: the points' fields alone. */
export const CELL_POINTS_FILTER = ['aggregations.*.points.hits.hits.fields'];

/**
 * The texts of each cell with a quota, in the order of the cells; null when a point has no current
 * text (a document of an older form): the caller reads the cells from `_source` then.
 */
export function cellPointsOf(aggregations: Record<string, unknown> | undefined, quotas: readonly number[]): Buffer[][] | null {
  const shares: Buffer[][] = [];
  for (let i = 0; i < quotas.length; i++) {
    if (quotas[i] <= 0) continue;
    const cell = aggregations?.[cellName(i)] as { points?: { hits?: { hits?: { fields?: Record<string, unknown[]> }[] } } } | undefined;
    const texts: Buffer[] = [];
    for (const hit of cell?.points?.hits?.hits ?? []) {
      const point = mapPointOf(hit.fields);
      if (point === null) return null;
      texts.push(point.text);
    }
    shares.push(texts);
  }
  return shares;
}
