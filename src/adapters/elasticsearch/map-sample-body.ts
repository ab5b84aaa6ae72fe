/**
 * A capped map spread over its box (src/core/query/map-sampling.ts) from doc values, in requests whose
 * cost follows the box's listings rather than its cells (no script: the node may run without one):
 * - the counts (`sampleCountsBody`): the box's exact total and, per cell, its listings, by two `range`
 *   aggregations on the plain coordinates `lat` and `lon` with the core's edges (rows, then columns
 *   under each row), and under each cell a `histogram` of its listings' `map_key`s up to a few times
 *   the threshold the quotas will ask for;
 * - the points (`samplePointsBody`): the listings of each cell whose key is below the cell's threshold
 *   (read off the histogram: the first bucket edge below which the cell holds its quota), sorted by
 *   key, their texts from doc values as the map reads them; each cell's quota is then taken from the
 *   front of its hits (`sampledShares`): a few more than the quotas are read, never fewer.
 * `map_key` is a pseudo-random key of the listing's id written at index time (read-model.ts mapKeyOf):
 * the first listings of a cell by key are spread over it, and the same query gives the same points
 * while the catalogue is unchanged. Quotas are the core's (cellQuotas); within a cell the order is the
 * key's, this engine's stable order.
 *
 * Across the antimeridian the core counts the longitudes east of it on from 180; a column is then two
 * ranges of stored longitudes, the second 360 degrees lower, both named after the column.
 */
import type { estypes } from '@elastic/elasticsearch';
import { SAMPLING_GRID, samplingCells, samplingEdges } from '../../core/query/map-sampling.js';
import type { BoundingBox, MapQuery } from '../../core/query/query.js';
import { boxClause } from './map-body.js';
import { boolQuery, filterClauses, searchScope } from './query-clauses.js';
import { JSON_VERSION_FIELD, LAT_FIELD, LON_FIELD, MAP_JSON_FIELD, MAP_KEY_FIELD, mapJsonOf } from './read-model.js';
import type { SearchBody } from './search-body.js';

/** Keys lie in [0, KEY_SPAN). */
export const KEY_SPAN = 2 ** 31;
/**
 * Histogram buckets per cell, counting keys up to three times the threshold a cell of the box's
 * average density gets: a cell reads at most about a sixth of its quota more than it needs, and one
 * whose quota lies further (a point or two among few listings) reads its every listing.
 */
const BUCKETS = 16;
const THRESHOLDS_COUNTED = 3;

/** Width of the key histogram's buckets, from the box's total (KEY_SPAN * limit / total: the expected threshold). */
export function keyInterval(total: number, limit: number): number {
  return Math.max(1, Math.ceil((KEY_SPAN * Math.min(1, limit / Math.max(1, total)) * THRESHOLDS_COUNTED) / BUCKETS));
}

/** The box's exact total, nothing else. */
export function boxTotalBody(query: MapQuery): SearchBody {
  const scope = searchScope(query.scope, query.grouped);
  return { query: boolQuery([...scope.filter, boxClause(query.bbox), ...filterClauses(query.filter)], scope.mustNot), size: 0, track_total_hits: true };
}

type Range = { key: string; from?: number; to?: number };

/** Ranges cut at the inner edges (outer ones open: the box's clause bounds the listings), named by their index. */
function cut(inner: readonly number[]): Range[] {
  return [...inner, undefined].map((to, i) => ({ key: String(i), ...(i > 0 ? { from: inner[i - 1] } : {}), ...(to !== undefined ? { to } : {}) }));
}

/**
 * The columns' ranges of stored longitudes. Across the antimeridian, `mid` (between the box's east and
 * west edges, where no listing of the box lies) starts the first column and ends the last one, and
 * each column also takes the stored longitudes 360 degrees lower.
 */
function columnRanges(bbox: BoundingBox, inner: readonly number[]): Range[] {
  if (bbox.west <= bbox.east) return cut(inner);
  const mid = (bbox.west + bbox.east) / 2;
  const edges = [mid, ...inner, mid + 360];
  return edges.slice(1).flatMap((to, i) => [
    { key: String(i), from: edges[i], to },
    { key: String(i), from: edges[i] - 360, to: to - 360 },
  ]);
}

/**
 * The counts of a box that can be cut (null otherwise): its exact total, per cell its listings and
 * the histogram of their keys from 0 to BUCKETS intervals.
 */
export function sampleCountsBody(query: MapQuery, interval: number): SearchBody | null {
  const edges = samplingEdges(query.bbox);
  if (!edges) return null;
  const keys = { histogram: { field: MAP_KEY_FIELD, interval, min_doc_count: 1, hard_bounds: { min: 0, max: interval * BUCKETS - 1 } } };
  const columns = { range: { field: LON_FIELD, ranges: columnRanges(query.bbox, edges.columns.slice(1, -1)) }, aggs: { keys } };
  return {
    ...boxTotalBody(query),
    aggs: { rows: { range: { field: LAT_FIELD, ranges: cut(edges.rows.slice(1, -1)) }, aggs: { columns } } },
  } as SearchBody;
}

export const SAMPLE_COUNTS_FILTER = [
  'hits.total',
  'aggregations.rows.buckets.key',
  'aggregations.rows.buckets.columns.buckets.key',
  'aggregations.rows.buckets.columns.buckets.doc_count',
  'aggregations.rows.buckets.columns.buckets.keys.buckets',
];

/** Each cell's listings and the histogram of their keys, in the order of the cells. */
export interface CellCounts {
  totals: number[];
  /** Per cell: [bucket key, listings] ascending, listings with a key in [key, key + interval). */
  keys: [number, number][][];
}

type Bucket<Sub> = { key: string | number; doc_count: number } & Sub;
type CountsAggregations = {
  rows?: { buckets: Bucket<{ columns?: { buckets: Bucket<{ keys?: { buckets: Bucket<object>[] } }>[] } }>[] };
};

export function cellCountsOf(aggregations: Record<string, unknown> | undefined): CellCounts {
  const cells = SAMPLING_GRID * SAMPLING_GRID;
  const totals = new Array<number>(cells).fill(0);
  const keys: [number, number][][] = Array.from({ length: cells }, () => []);
  for (const row of (aggregations as CountsAggregations | undefined)?.rows?.buckets ?? []) {
    for (const column of row.columns?.buckets ?? []) {
      const cell = Number(row.key) * SAMPLING_GRID + Number(column.key);
      totals[cell] += column.doc_count;
      keys[cell].push(...(column.keys?.buckets ?? []).map((b): [number, number] => [Number(b.key), b.doc_count]));
    }
  }
  // The two halves of a column across the antimeridian: one histogram.
  for (const histogram of keys) histogram.sort((a, b) => a[0] - b[0]);
  return { totals, keys };
}

/**
 * Each cell's key threshold (exclusive) and the listings below them all: the first histogram edge below
 * which the cell holds its quota, or every key when its counted buckets do not reach it. -1: no quota.
 */
export function cellThresholds(counts: CellCounts, quotas: readonly number[], interval: number): { thresholds: number[]; read: number } {
  let read = 0;
  const thresholds = quotas.map((quota, cell) => {
    if (quota <= 0) return -1;
    let below = 0;
    for (const [key, listings] of counts.keys[cell]) {
      below += listings;
      if (below >= quota) {
        read += below;
        return key + interval;
      }
    }
    read += counts.totals[cell];
    return KEY_SPAN;
  });
  return { thresholds, read };
}

/** The listings of each cell below its threshold (one clause per cell with a quota), by key, their texts and coordinates from doc values. */
export function samplePointsBody(query: MapQuery, thresholds: readonly number[], size: number): SearchBody {
  const scope = searchScope(query.scope, query.grouped);
  const cells = samplingCells(query.bbox) ?? [];
  const shares = cells.flatMap((cell, i) => {
    if (thresholds[i] < 0) return [];
    const below = thresholds[i] < KEY_SPAN ? [{ range: { [MAP_KEY_FIELD]: { lt: thresholds[i] } } }] : [];
    return [{ bool: { filter: [boxClause(cell), ...below] } }];
  });
  return {
    query: boolQuery([...scope.filter, boxClause(query.bbox), ...filterClauses(query.filter), { bool: { should: shares } }], scope.mustNot),
    size,
    track_total_hits: false,
    sort: [{ [MAP_KEY_FIELD]: 'asc' }],
    _source: false,
    stored_fields: '_none_',
    docvalue_fields: [JSON_VERSION_FIELD, MAP_JSON_FIELD, LAT_FIELD, LON_FIELD],
  } satisfies Partial<estypes.SearchRequest> as SearchBody;
}

export const SAMPLE_POINTS_FILTER = ['hits.hits.fields'];

/** The cell of a point, by the same edges as the counts (longitudes east of the antimeridian counted on from 180). */
function cellOf(bbox: BoundingBox, rows: readonly number[], columns: readonly number[], lat: number, lon: number): number {
  const east = bbox.west > bbox.east && lon < (bbox.west + bbox.east) / 2 ? lon + 360 : lon;
  let r = 0;
  while (r < rows.length && lat > rows[r]) r++;
  let c = 0;
  while (c < columns.length && east > columns[c]) c++;
  return r * SAMPLING_GRID + c;
}

/**
 * The texts of each cell with a quota up to it, taken from the front of its hits (ascending keys), in
 * the order of the cells; null when a point has no current text (a document of an older form) or a
 * cell got fewer than its quota (the catalogue changed between the two requests): the caller reads the
 * cells another way then.
 */
export function sampledShares(bbox: BoundingBox, hits: readonly { fields?: unknown }[], quotas: readonly number[]): Buffer[][] | null {
  const edges = samplingEdges(bbox);
  if (!edges) return null;
  const rows = edges.rows.slice(1, -1);
  const columns = edges.columns.slice(1, -1);
  const shares: Buffer[][] = quotas.map(() => []);
  for (const hit of hits) {
    const fields = hit.fields as Record<string, unknown[]> | undefined;
    const cell = cellOf(bbox, rows, columns, Number(fields?.[LAT_FIELD]?.[0]), Number(fields?.[LON_FIELD]?.[0]));
    if (shares[cell].length >= quotas[cell]) continue;
    const text = mapJsonOf(fields);
    if (text === null) return null;
    shares[cell].push(text);
  }
  return shares.every((share, cell) => share.length === quotas[cell]) ? shares.filter((_, cell) => quotas[cell] > 0) : null;
}
