/**
 * GET /annonces/map on SQLite: the statements of each box as a pure function of the engine-neutral
 * query and the plan the store chose (which indexes the store has, whether the texts are current).
 */
import type { BoundingBox, MapQuery } from '../../../core/query/query.js';
import { filterConditions, ftsMatchExpression, mergeParts, scopeConditions, type Sql } from '../read/filter-sql.js';
import { MAP_POINT_COLUMNS } from '../rows/columns.js';

export interface MapPlan {
  /** The exact total comes from the in-memory copy of ix_map (map/points-in-memory.ts): no count statement. */
  countInMemory: boolean;
  /** The index the count walks (ix_map), null when the store lacks it (the planner picks a plan). */
  countIndex: string | null;
  /** The index the points are read from: ix_map_points, else countIndex. */
  pointsIndex: string | null;
  /** The rows' `map_json` texts are current. */
  presented: boolean;
  /** With current texts: the points joined into one text by SQLite (false after a point without its text). */
  joinTexts: boolean;
}

/**
 * How the points statement's rows are read: `joined` one row (count, texts, the texts joined),
 * `texts` a rowid and a text per point, `columns` a point's columns (MAP_POINT_COLUMNS).
 */
export type MapPointsRead = 'joined' | 'texts' | 'columns';

export interface MapBoxSql {
  /** Null when the total is counted in memory. */
  count: Sql | null;
  points: Sql & { read: MapPointsRead };
}

/** A box across the antimeridian (west > east) is two boxes. */
export function splitAtAntimeridian(bbox: BoundingBox): BoundingBox[] {
  return bbox.west <= bbox.east
    ? [bbox]
    : [
        { ...bbox, east: 180 },
        { ...bbox, west: -180 },
      ];
}

/** What decides how a map read (points, counts or clusters) finds its listings. */
export type MapScopeQuery = Pick<MapQuery, 'filter' | 'scope' | 'grouped'>;

/**
 * The default map (grouped, every site, no text) is served by covering indexes: the exact count
 * reads ix_map's entries only, where the R*Tree needs the listing row of every point in the box to
 * check `vis` and `entered_at`, and the points are the texts of ix_map_points' entries, no row read.
 */
export function mapServedByIndex(query: MapScopeQuery): boolean {
  return !query.filter.words?.length && query.grouped && query.scope.eligibleSites === null;
}

/** Without any filter the default map's exact total may be counted in memory (map/points-in-memory.ts). */
export function mapCountableInMemory(query: MapScopeQuery): boolean {
  return mapServedByIndex(query) && filterConditions(query.filter).where.length === 0;
}

/** The statements of one box (of splitAtAntimeridian); `room`: how many points the answer still takes. */
export function buildMapBoxSql(query: MapQuery, plan: MapPlan, box: BoundingBox, room: number): MapBoxSql {
  const byIndex = mapServedByIndex(query);
  const scope = scopeConditions(query.scope, query.grouped);
  const parts = byIndex
    ? mergeParts(
        { where: ['l.lat >= ?', 'l.lat <= ?', 'l.lon >= ?', 'l.lon <= ?'], params: [box.south, box.north, box.west, box.east] },
        scope,
        filterConditions(query.filter),
      )
    : mergeParts(
        { where: ['r.min_lat >= ?', 'r.max_lat <= ?', 'r.min_lon >= ?', 'r.max_lon <= ?'], params: [box.south, box.north, box.west, box.east] },
        scope,
        filterConditions(query.filter),
      );
  if (query.filter.words?.length) {
    // The box drives the plan; the matching documents are materialised once by SQLite.
    parts.where.push('l.rowid IN (SELECT rowid FROM listings_fts WHERE listings_fts MATCH ?)');
    parts.params.push(ftsMatchExpression(query.filter.words));
  }
  const from = (index: string | null) => {
    if (!byIndex) return 'listings_rtree r CROSS JOIN listings l ON l.rowid = r.id';
    return index === null ? 'listings l' : `listings l INDEXED BY ${index}`;
  };
  const where = parts.where.join(' AND ');
  const count = plan.countInMemory ? null : { sql: `SELECT count(*) AS n FROM ${from(plan.countIndex)} WHERE ${where}`, params: parts.params };
  if (plan.presented && plan.joinTexts) {
    // SQLite joins the texts in C: one Buffer instead of a row per point.
    return {
      count,
      points: {
        read: 'joined',
        params: parts.params,
        sql: `SELECT count(*) AS n, count(map_json) AS texts, CAST(group_concat(map_json, ',') AS BLOB) AS json
          FROM (SELECT l.map_json AS map_json FROM ${from(plan.pointsIndex)} WHERE ${where} LIMIT ${room})`,
      },
    };
  }
  if (plan.presented) {
    return {
      count,
      points: {
        read: 'texts',
        params: parts.params,
        sql: `SELECT l.rowid AS rowid, CAST(l.map_json AS BLOB) AS map_json FROM ${from(plan.pointsIndex)} WHERE ${where} LIMIT ${room}`,
      },
    };
  }
  return {
    count,
    points: { read: 'columns', params: parts.params, sql: `SELECT ${MAP_POINT_COLUMNS} FROM ${from(plan.countIndex)} WHERE ${where} LIMIT ${room}` },
  };
}
