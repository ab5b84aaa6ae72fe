/**
 * GET /stats on SQLite, as pure builders from the query to two statements: the values of the active
 * listings of the area (those /annonces returns for it: grouped, with a photo, in the access period)
 * and of the site listings that left the market since `withdrawnSince` (those /annonces/retirees
 * delivers). The quartiles are then exact, from the sorted values (statsFromRows); an area is a few
 * thousand listings, a department some tens of thousands.
 */
import type { StatsArea, StatsQuery, StatsResult } from '../../../core/query/aggregates.js';
import { quartilesOf, statsCriteria, withdrawnStats, type WithdrawnValues } from '../../../core/query/aggregates.js';
import { conditionSql, mergeParts, scopeConditions, siteConditions, type SqlPart } from './filter-sql.js';
import type { SqlStatement } from '../map/clusters-sql.js';
import { areaConditions as shapeConditions } from './geo-sql.js';

/** The area as conditions on the listing row. */
export function areaConditions(area: StatsArea): SqlPart {
  const marks = (values: readonly unknown[]) => values.map(() => '?').join(',');
  switch (area.kind) {
    case 'postalCode':
      return { where: ['l.postal_code = ?'], params: [area.postalCode] };
    case 'department':
      return { where: ['l.department = ?'], params: [area.department] };
    case 'shape':
      return shapeConditions(area.shape);
    case 'bbox': {
      const { south, west, north, east } = area.bbox;
      // Across the antimeridian (west > east) the longitudes are those east of west or west of east.
      const lon = west <= east ? 'l.lon >= ? AND l.lon <= ?' : '(l.lon >= ? OR l.lon <= ?)';
      return { where: ['l.lat >= ?', 'l.lat <= ?', lon], params: [south, north, west, east] };
    }
    case 'commune': {
      // A postal code of this commune alone, or one it shares and the listing's city is its name.
      const alone = area.postalCodes.length ? [`l.postal_code IN (${marks(area.postalCodes)})`] : [];
      const shared =
        area.sharedPostalCodes.length && area.cityNames.length
          ? [`(l.postal_code IN (${marks(area.sharedPostalCodes)}) AND l.city_norm IN (${marks(area.cityNames)}))`]
          : [];
      const either = [...alone, ...shared];
      return {
        where: [either.length ? `(${either.join(' OR ')})` : '0'],
        params: [...area.postalCodes, ...(shared.length ? [...area.sharedPostalCodes, ...area.cityNames] : [])],
      };
    }
  }
}

/**
 * type, transaction and rooms (statsCriteria). The area is what must drive the plan (a department's
 * or a postal code's index, the map's latitude index for a box): the unary + keeps SQLite from
 * seeking a nationwide (transaction, type) index instead; no index leads by rooms.
 */
function criteriaConditions(query: StatsQuery): SqlPart {
  return mergeParts(...statsCriteria(query).map((condition) => conditionSql(condition, 'l', condition.op === 'range')));
}

function statement(columns: string, ...parts: SqlPart[]): SqlStatement {
  return {
    sql: `SELECT ${columns} FROM listings l WHERE ${parts.flatMap((p) => p.where).join(' AND ')}`,
    params: parts.flatMap((p) => p.params),
  };
}

export function buildActiveStatsSql(query: StatsQuery): SqlStatement {
  return statement(
    'l.price AS price, l.price_per_m2 AS price_per_m2',
    scopeConditions(query.scope, query.grouped),
    areaConditions(query.area),
    criteriaConditions(query),
  );
}

/** The withdrawn listings' values (WithdrawnValues, in its order); their figures are computed by withdrawnStats. */
export function buildWithdrawnStatsSql(query: StatsQuery): SqlStatement {
  return statement(
    `l.price AS price, l.price_per_m2 AS pricePerM2,
  json_extract(l.points, '$[0].price') AS firstPrice, json_extract(l.points, '$[#-1].price') AS lastPrice,
  l.left_market_at AS leftMarketAt, l.published_at AS publishedAt, l.entered_at AS enteredAt`,
    { where: ['l.active = 0', 'l.left_market_at >= ?'], params: [query.withdrawnSince] },
    siteConditions(query.scope),
    areaConditions(query.area),
    criteriaConditions(query),
  );
}

type Raw = (number | null)[];

/** The rows' column `index` without its unknown values. */
function known(rows: Raw[], index: number): Float64Array {
  const values: number[] = [];
  for (const row of rows) if (row[index] !== null) values.push(row[index] as number);
  return Float64Array.from(values);
}

/** The exact figures of the active listings' raw rows (price, price per m²) and of the withdrawn listings. */
export function statsFromRows(active: Raw[], withdrawn: WithdrawnValues[]): StatsResult {
  return {
    active: { count: active.length, price: quartilesOf(known(active, 0)), pricePerM2: quartilesOf(known(active, 1)) },
    withdrawn: withdrawnStats(withdrawn),
  };
}
