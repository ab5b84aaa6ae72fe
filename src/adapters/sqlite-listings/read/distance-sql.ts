/**
 * A search sorted by distance (`sort=distance`) on SQLite: nearest first from the centre, ties by id,
 * over the listings with coordinates. No index orders by a distance, so the statement sorts what the
 * filters keep. The store asks it first within small rings around the centre (`ringKm`: the R*Tree's
 * boxes of that circle, read/geo-sql.ts), widening them until a ring holds the page whole, so a page
 * sorts the listings near the centre rather than every one of the area. Rows and documents are read
 * for the page only.
 */
import type { SearchQuery } from '../../../core/query/query.js';
import type { LatLon } from '../../../core/query/geo.js';
import { filterConditions, mergeParts, scopeConditions, type Param, type Sql } from './filter-sql.js';
import { DOC_COLUMNS, PAGE_ROW_COLUMNS } from '../rows/columns.js';
import type { SqlPart } from './sql-part.js';
import { areaConditions, DISTANCE_FUNCTION, withinCondition } from './geo-sql.js';
import { withText, type TextChoice } from '../text/choice.js';

const DISTANCE = `${DISTANCE_FUNCTION}(?, ?, l.lat, l.lon)`;

/**
 * Rows of the page and one more, each with its `distance` in metres; with `ringKm`, only those within
 * that many kilometres of the centre.
 */
export function buildDistanceSearchSql(query: SearchQuery, centre: LatLon, text: TextChoice | null, ringKm?: number): Sql {
  const { area, ...others } = query.filter;
  // Within a ring, the ring's R*Tree boxes lead and the area is a test of the rows: with both in the
  // R*Tree, SQLite may lead with the area's boxes and read every listing of the area again.
  const ringParts: SqlPart[] =
    ringKm === undefined
      ? [filterConditions(query.filter)]
      : [filterConditions(others), areaConditions({ kind: 'circle', centre, radiusKm: ringKm }), area ? withinCondition(area) : { where: [], params: [] }];
  const parts = mergeParts(scopeConditions(query.scope, query.grouped), ...ringParts, { where: ['l.lat IS NOT NULL', 'l.lon IS NOT NULL'], params: [] });
  if (query.after) {
    const [distance, id] = query.after as Param[];
    parts.where.push(`(${DISTANCE} > ? OR (${DISTANCE} = ? AND l.id > ?))`);
    parts.params.push(centre.lat, centre.lon, distance, centre.lat, centre.lon, distance, id);
  }
  const limit = query.pageSize + 1;
  const offset = query.after ? 0 : (query.page - 1) * query.pageSize;
  const statement = withText(
    query.filter,
    parts,
    text,
    (from, where) =>
      `SELECT l.*, ${DOC_COLUMNS}
        FROM (SELECT l.rowid AS rowid, ${PAGE_ROW_COLUMNS}, ${DISTANCE} AS distance FROM ${from} WHERE ${where} ORDER BY distance, l.id LIMIT ${limit} OFFSET ${offset}) l
        ORDER BY l.distance, l.id`,
  );
  // The distance of the inner result columns precedes, in the text, every parameter of FROM and WHERE.
  return { sql: statement.sql, params: [centre.lat, centre.lon, ...statement.params] };
}
