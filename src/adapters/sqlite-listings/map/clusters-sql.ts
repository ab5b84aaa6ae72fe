/**
 * GET /annonces/map/clusters on SQLite, as a pure builder from the query to one statement: the map's
 * listings of the box (the same conditions as the map's count, so the cells add up to its `total`),
 * each given its web-map tile in SQL and grouped by tile. SQLite returns per cell the count, the sums
 * of the coordinates (the centroid), the box of its listings, the lowest price, the id of a lone listing and the prices joined
 * with commas; the exact median is taken from those in JS (clusterCells), since SQLite has no median.
 *
 * The tile row is Elasticsearch's geotile formula (src/core/query/aggregates.ts tileY) with SQLite's
 * math functions; the tile count per side is written into the statement (one statement per zoom).
 */
import type { ClusterCell, ClustersQuery } from '../../../core/query/aggregates.js';
import { MERCATOR_MAX_LATITUDE, quantileOfSorted, tilesPerSide } from '../../../core/query/aggregates.js';
import type { BoundingBox } from '../../../core/query/query.js';
import { filterConditions, ftsMatchExpression, scopeConditions } from '../read/filter-sql.js';

export interface SqlStatement {
  sql: string;
  params: (string | number)[];
}

/** A row of the statement: one tile. */
export interface ClusterRow {
  x: number;
  y: number;
  n: number;
  sum_lat: number;
  sum_lon: number;
  price_min: number | null;
  lone_id: string | null;
  prices: string | null;
  south: number;
  north: number;
  west: number;
  east: number;
}

/**
 * Whether the query is the default map (grouped, every site, no text): its listings are the entries
 * of the partial index ix_map (vis = 2), walked by latitude. The others go through the R*Tree as the
 * map's do.
 */
function byMapIndex(query: ClustersQuery): boolean {
  return !query.filter.words?.length && query.grouped && query.scope.eligibleSites === null;
}

/** The listings of one box (west <= east): position, price and id. */
function boxSelect(query: ClustersQuery, box: BoundingBox): SqlStatement {
  const byIndex = byMapIndex(query);
  const scope = scopeConditions(query.scope, query.grouped);
  const filter = filterConditions(query.filter);
  const where = byIndex ? ['l.lat >= ?', 'l.lat <= ?', 'l.lon >= ?', 'l.lon <= ?'] : ['r.min_lat >= ?', 'r.max_lat <= ?', 'r.min_lon >= ?', 'r.max_lon <= ?'];
  const params: (string | number)[] = [box.south, box.north, box.west, box.east];
  where.push(...scope.where, ...filter.where);
  params.push(...scope.params, ...filter.params);
  if (query.filter.words?.length) {
    where.push('l.rowid IN (SELECT rowid FROM listings_fts WHERE listings_fts MATCH ?)');
    params.push(ftsMatchExpression(query.filter.words));
  }
  const from = byIndex ? 'listings l' : 'listings_rtree r CROSS JOIN listings l ON l.rowid = r.id';
  return {
    sql: `SELECT l.lat AS lat, l.lon AS lon, l.price AS price, l.id AS id FROM ${from} WHERE ${where.join(' AND ')}`,
    params,
  };
}

export function buildClustersSql(query: ClustersQuery): SqlStatement {
  const { bbox } = query;
  // A box across the antimeridian (west > east) is two boxes; a tile never spans both.
  const boxes =
    bbox.west <= bbox.east
      ? [bbox]
      : [
          { ...bbox, east: 180 },
          { ...bbox, west: -180 },
        ];
  const parts = boxes.map((box) => boxSelect(query, box));
  const n = tilesPerSide(query.zoom);
  const limit = MERCATOR_MAX_LATITUDE;
  const sine = `sin(radians(max(-${limit}, min(${limit}, p.lat))))`;
  const sql = `SELECT x, y, count(*) AS n, sum(lat) AS sum_lat, sum(lon) AS sum_lon, min(price) AS price_min,
  CASE WHEN count(*) = 1 THEN min(id) END AS lone_id, group_concat(price) AS prices,
  min(lat) AS south, max(lat) AS north, min(lon) AS west, max(lon) AS east
FROM (SELECT p.lat AS lat, p.lon AS lon, p.price AS price, p.id AS id,
    min(${n - 1}, max(0, CAST(floor((p.lon + 180) / 360 * ${n}) AS INTEGER))) AS x,
    min(${n - 1}, max(0, CAST(floor((0.5 - ln((1 + s) / (1 - s)) / (4 * pi())) * ${n}) AS INTEGER))) AS y
  FROM (SELECT p.*, ${sine} AS s FROM (${parts.map((part) => part.sql).join(' UNION ALL ')}) p) p)
GROUP BY x, y ORDER BY y, x`;
  return { sql, params: parts.flatMap((part) => part.params) };
}

/** The cells of the statement's rows, with the exact median of each cell's prices. */
export function clusterCells(rows: ClusterRow[], zoom: number): Omit<ClusterCell, 'point'>[] {
  return rows.map((row) => ({
    zoom,
    x: row.x,
    y: row.y,
    count: row.n,
    lat: row.sum_lat / row.n,
    lon: row.sum_lon / row.n,
    priceMin: row.price_min,
    priceMedian: row.prices === null ? null : quantileOfSorted(Float64Array.from(row.prices.split(','), Number).sort(), 0.5),
    id: row.lone_id,
    bounds: { south: row.south, west: row.west, north: row.north, east: row.east },
  }));
}
