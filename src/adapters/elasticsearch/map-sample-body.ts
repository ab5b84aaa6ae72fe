/**
 * A capped map spread over its box (src/core/query/map-sampling.ts) from doc values, in requests whose
 * cost follows the box's listings rather than its cells (no script: the node may run without one):
 * - the counts (`sampleCountsBody`): the box's exact total and, per cell, its listings, by two `range`
 *   aggregations on the plain coordinates `lat` and `lon` with the core's edges (rows, then columns
 *   under each row);
 * - the points: first the box's listings whose key is below one threshold (`boxPointsBody`), the
 *   highest of the cells' own that keeps the read within a budget (`boxThreshold`), sorted by key,
 *   their texts from doc values as the map reads them; each cell's quota is then taken from the front
 *   of its hits (`cellShares`). The cells still short (a sparse one, whose threshold is higher) are
 *   read below their own thresholds, one clause each (`samplePointsBody`). One threshold for the box
 *   costs the node a range on the key; a clause per cell, a box and a range each, costs it far more.
 * `map_key` is a pseudo-random key of the listing's id written at index time (read-model.ts mapKeyOf),
 * spread evenly over [0, KEY_SPAN): the listings of a cell below a threshold t number about
 * n x t / KEY_SPAN, so each cell's threshold is set for its quota and a few standard deviations more
 * (`firstThresholds`); a cell that still falls short is read again with a wider one (`widened`). The
 * first listings of a cell by key are spread over it, and the same query gives the same points while
 * the catalogue is unchanged. Quotas are the core's (cellQuotas); within a cell the order is the key's,
 * this engine's stable order.
 *
 * Across the antimeridian the core counts the longitudes east of it on from 180; a column is then two
 * ranges of stored longitudes, the second 360 degrees lower, both named after the column.
 */
import type { estypes } from '@elastic/elasticsearch';
import { SAMPLING_GRID, samplingCells, samplingEdges } from '../../core/query/map-sampling.js';
import type { BoundingBox, MapQuery } from '../../core/query/query.js';
import { boxClause } from './map-body.js';
import { boolQuery, filterClauses, searchScope } from './query-clauses.js';
import { LAT_FIELD, LON_FIELD, MAP_KEY_FIELD, mapPointOf, presentedMapFields } from './read-model.js';
import type { SearchBody } from './search-body.js';

/** Keys lie in [0, KEY_SPAN). */
export const KEY_SPAN = 2 ** 31;
/**
 * Standard deviations of a cell's count below its first threshold over its quota: a cell falls short
 * (and is read again) about once in 40, and the first read is about 2 sqrt(quota) + 2 listings more
 * per cell than the quotas.
 */
const MARGIN_SD = 2;
/** A short cell's threshold is multiplied by this for the next read. */
const WIDENING = 4;
/** The first read returns at most about this many times the map's limit (at most half the read cap). */
const BOX_READ_BUDGET = 1.5;

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

/** The counts of a box that can be cut (null otherwise): its exact total and per cell its listings. */
export function sampleCountsBody(query: MapQuery): SearchBody | null {
  const edges = samplingEdges(query.bbox);
  if (!edges) return null;
  const columns = { range: { field: LON_FIELD, ranges: columnRanges(query.bbox, edges.columns.slice(1, -1)) } };
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
];

type Bucket<Sub> = { key: string | number; doc_count: number } & Sub;
type CountsAggregations = { rows?: { buckets: Bucket<{ columns?: { buckets: Bucket<object>[] } }>[] } };

/** Each cell's listings, in the order of the cells (the two halves of a column across the antimeridian added up). */
export function cellCountsOf(aggregations: Record<string, unknown> | undefined): number[] {
  const totals = new Array<number>(SAMPLING_GRID * SAMPLING_GRID).fill(0);
  for (const row of (aggregations as CountsAggregations | undefined)?.rows?.buckets ?? []) {
    for (const column of row.columns?.buckets ?? []) totals[Number(row.key) * SAMPLING_GRID + Number(column.key)] += column.doc_count;
  }
  return totals;
}

/**
 * Each cell's first key threshold (exclusive): its quota and MARGIN_SD standard deviations more
 * expected below it, or every key when that is most of the cell. -1: no quota.
 */
export function firstThresholds(totals: readonly number[], quotas: readonly number[]): number[] {
  return quotas.map((quota, cell) => {
    if (quota <= 0) return -1;
    const wanted = quota + MARGIN_SD * Math.sqrt(quota) + MARGIN_SD;
    return wanted >= totals[cell] ? KEY_SPAN : Math.ceil((KEY_SPAN * wanted) / totals[cell]);
  });
}

/**
 * The threshold of the box's first read: the highest of the cells' thresholds below which the box
 * holds, by the cells' counts, at most BOX_READ_BUDGET times the limit (and half of `maxRead`); 0 when
 * even the lowest does not fit. A dense box of even density gets its every cell's threshold; in a
 * box of towns and countryside the sparse cells, whose thresholds are higher, are left for later.
 */
export function boxThreshold(totals: readonly number[], thresholds: readonly number[], limit: number, maxRead: number): number {
  const budget = Math.min(BOX_READ_BUDGET * limit, maxRead / 2);
  const candidates = [...new Set(thresholds.filter((threshold) => threshold >= 0))].sort((a, b) => a - b);
  let best = 0;
  for (const threshold of candidates) {
    const read = totals.reduce((sum, n) => sum + Math.min(n, (n * threshold) / KEY_SPAN), 0);
    if (read > budget) break;
    best = threshold;
  }
  return best;
}

/** The threshold of a cell read short: WIDENING times wider, at most every key. */
export function widened(threshold: number): number {
  return Math.min(KEY_SPAN, threshold * WIDENING);
}

/** The clause keeping the keys below a threshold: none at KEY_SPAN. */
function keysBelow(threshold: number): object[] {
  return threshold < KEY_SPAN ? [{ range: { [MAP_KEY_FIELD]: { lt: threshold } } }] : [];
}

/**
 * The box's listings below one key threshold (every one at KEY_SPAN), by key, their texts and
 * coordinates from doc values (`docValues`, read-model.ts MAP_POINT_DOC_VALUES or any form).
 */
export function boxPointsBody(query: MapQuery, threshold: number, size: number, docValues: readonly string[]): SearchBody {
  return pointsBody(query, keysBelow(threshold), size, docValues);
}

/** The listings of each cell below its threshold (one clause per cell with a quota), by key, their texts and coordinates from doc values. */
export function samplePointsBody(query: MapQuery, thresholds: readonly number[], size: number, docValues: readonly string[]): SearchBody {
  const cells = samplingCells(query.bbox) ?? [];
  const shares = cells.flatMap((cell, i) => {
    if (thresholds[i] < 0) return [];
    return [{ bool: { filter: [boxClause(cell), ...keysBelow(thresholds[i])] } }];
  });
  return pointsBody(query, [{ bool: { should: shares } }], size, docValues);
}

function pointsBody(query: MapQuery, clauses: object[], size: number, docValues: readonly string[]): SearchBody {
  const scope = searchScope(query.scope, query.grouped);
  return {
    query: boolQuery([...scope.filter, boxClause(query.bbox), ...filterClauses(query.filter), ...clauses], scope.mustNot),
    size,
    track_total_hits: false,
    sort: [{ [MAP_KEY_FIELD]: 'asc' }],
    ...presentedMapFields(docValues),
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
 * The texts of each cell up to its quota, taken from the front of its hits (ascending keys), a cell
 * short of its quota with fewer; null when a point has no current text (a document of an older form):
 * the caller reads the cells another way then.
 */
export function cellShares(bbox: BoundingBox, hits: readonly { fields?: unknown }[], quotas: readonly number[]): Buffer[][] | null {
  const edges = samplingEdges(bbox);
  if (!edges) return null;
  const rows = edges.rows.slice(1, -1);
  const columns = edges.columns.slice(1, -1);
  const shares: Buffer[][] = quotas.map(() => []);
  for (const hit of hits) {
    const point = mapPointOf(hit.fields as Record<string, unknown[]> | undefined);
    if (point === null) return null;
    const cell = cellOf(bbox, rows, columns, point.latitude, point.longitude);
    if (shares[cell].length < quotas[cell]) shares[cell].push(point.text);
  }
  return shares;
}
