/**
 * GET /annonces/map/clusters as one search: the map's query (map-body.ts: the same box, scope and
 * filters, so the buckets add up to the map's total) with no hit, and a `geotile_grid` aggregation
 * on `location` at precision = zoom: the web-map tiling's tiles. Each bucket carries its centroid
 * (`geo_centroid`), the box of its listings (`geo_bounds`), its lowest price (`min`), its median price (`percentiles`, a TDigest: within the
 * bound of docs/api.md, not exact) and one of its listings (`top_hits` of one document, its map
 * point's fields), read only for the buckets that hold one listing: its id and its map point's text, from doc values (read-model.ts).
 *
 * `size` is the route's tile limit (MAX_CLUSTER_TILES): a box covers at most that many tiles at the
 * zoom asked, so every non-empty tile is a bucket and none is left out.
 */
import type { ClusterCell, ClustersQuery } from '../../core/query/aggregates.js';
import { MAX_CLUSTER_TILES } from '../../core/query/aggregates.js';
import { boxClause } from './map-body.js';
import { ANY_FORM_MAP_TEXT_DOC_VALUES, mapPointOf } from './read-model.js';
import { boolQuery, filterClauses, searchScope } from './query-clauses.js';
import type { SearchBody } from './search-body.js';

/** TDigest compression of every percentiles aggregation of the aggregate reads. */
export const PERCENTILES_COMPRESSION = 200;

/**
 * The error bound of those estimates, as docs/api.md states it and the conformance suite checks it:
 * the value returned for quantile q lies between the exact order statistics at ranks
 * (q - 0.01)(n - 1), rounded down, and (q + 0.01)(n - 1), rounded up, of the n known values.
 */
export const QUANTILE_RANK_BOUND = 0.01;

export function buildClustersBody(query: ClustersQuery): SearchBody {
  const scope = searchScope(query.scope, query.grouped);
  return {
    query: boolQuery([...scope.filter, boxClause(query.bbox), ...filterClauses(query.filter)], scope.mustNot),
    size: 0,
    track_total_hits: true,
    aggs: {
      cells: {
        geotile_grid: { field: 'location', precision: query.zoom, size: MAX_CLUSTER_TILES },
        aggs: {
          centroid: { geo_centroid: { field: 'location' } },
          bounds: { geo_bounds: { field: 'location' } },
          price_min: { min: { field: 'content.price' } },
          price_median: { percentiles: { field: 'content.price', percents: [50], tdigest: { compression: PERCENTILES_COMPRESSION } } },
          one: { top_hits: { size: 1, _source: false, docvalue_fields: ['id', ...ANY_FORM_MAP_TEXT_DOC_VALUES] } },
        },
      },
    },
  } as SearchBody;
}

/** A bucket of the `cells` aggregation as the cluster answers it. */
export interface CellBucket {
  key: string;
  doc_count: number;
  centroid: { location?: { lat: number; lon: number } };
  bounds: { bounds?: { top_left: { lat: number; lon: number }; bottom_right: { lat: number; lon: number } } };
  price_min: { value: number | null };
  price_median: { values: Record<string, number | null> };
  one: { hits: { hits: { fields?: Record<string, unknown[]> }[] } };
}

export function cellOfBucket(bucket: CellBucket): ClusterCell {
  const [zoom, x, y] = bucket.key.split('/').map(Number);
  const location = bucket.centroid.location ?? { lat: 0, lon: 0 };
  const median = Object.values(bucket.price_median.values)[0] ?? null;
  const loneHit = bucket.doc_count === 1 ? bucket.one.hits.hits[0] : undefined;
  const lone = loneHit ? { id: String(loneHit.fields?.id?.[0]), point: mapPointOf(loneHit.fields)?.text ?? null } : null;
  return {
    zoom,
    x,
    y,
    count: bucket.doc_count,
    lat: location.lat,
    lon: location.lon,
    priceMin: bucket.price_min.value,
    priceMedian: median,
    id: lone ? lone.id : null,
    // A document of an older form has no current text: the store reads that point from _source.
    point: lone ? lone.point : null,
    bounds: boundsOf(bucket),
  };
}

/**
 * The cell's box. geo_bounds gives the indexed points, rounded by under 1e-7 degree; stored
 * coordinates have three decimals (the indexer rounds them), so six decimals give them back as stored.
 */
function boundsOf(bucket: CellBucket): ClusterCell['bounds'] {
  const box = bucket.bounds.bounds;
  if (!box) return { south: 0, west: 0, north: 0, east: 0 };
  const six = (value: number) => Math.round(value * 1e6) / 1e6;
  return { south: six(box.bottom_right.lat), west: six(box.top_left.lon), north: six(box.top_left.lat), east: six(box.bottom_right.lon) };
}
