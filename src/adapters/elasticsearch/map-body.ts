/**
 * GET /annonces/map as one search: the exact total of the box (`track_total_hits: true`, the only
 * place a total is promised) and at most `limit` points, in index order (`_doc`, the cheapest order).
 *
 * A box across the antimeridian (west > east) is sent as it is: geo_bounding_box accepts a left
 * longitude above the right one and queries both sides of the 180th meridian ("we do not check
 * longitudes as the query generation code can deal with flipped left/right values",
 * GeoBoundingBoxQueryBuilder.setCorners).
 *
 * Edges are inclusive, as in SQLite. The reference ("Notes on precision") says indexed points are
 * rounded down and the lower bounds of a box rounded up, so a point exactly on the south or west
 * edge could be missed (error below 4.20e-8 degrees of latitude, 8.39e-8 of longitude): those two
 * bounds are lowered by 1e-7 degrees. Stored coordinates have 3 decimals, so no point lies within
 * 1e-7 of a bound without being on it.
 */
import type { MapQuery } from '../../core/query/query.js';
import { MAP_POINT_FIELDS } from './document.js';
import { MAP_POINT_DOC_VALUES, presentedMapFields } from './read-model.js';
import { boolQuery, filterClauses, searchScope, type Clause } from './query-clauses.js';
import type { SearchBody } from './search-body.js';

export const LOWER_EDGE_SLACK_DEGREES = 1e-7;

/** `docValues`: the points' form to read (read-model.ts MAP_POINT_DOC_VALUES, or any form on an older index). */
export function buildMapBody(query: MapQuery, docValues: readonly string[] = MAP_POINT_DOC_VALUES): SearchBody {
  const scope = searchScope(query.scope, query.grouped);
  return {
    query: boolQuery([...scope.filter, boxClause(query.bbox), ...filterClauses(query.filter)], scope.mustNot),
    size: query.limit,
    track_total_hits: true,
    sort: ['_doc'],
    ...presentedMapFields(docValues),
  };
}

/** The same map read from `_source`, for documents written before the read model (read-model.ts). */
export function sourceMapBody(body: SearchBody): SearchBody {
  const { docvalue_fields: _, stored_fields: __, ...rest } = body;
  return { ...rest, _source: { includes: MAP_POINT_FIELDS } };
}

export function boxClause({ south, west, north, east }: MapQuery['bbox']): Clause {
  const crossesAntimeridian = west > east;
  let left = lowered(west, -180);
  // Never let the slack turn a box across the antimeridian into a thin ordinary one.
  if (crossesAntimeridian && left <= east) left = west;
  return {
    geo_bounding_box: {
      location: {
        top_left: { lat: north, lon: left },
        bottom_right: { lat: lowered(south, -90), lon: east },
      },
    },
  };
}

/** The bound minus the slack, rounded to 9 decimals so the body stays readable, never past the limit. */
function lowered(bound: number, limit: number): number {
  return Math.max(limit, Number((bound - LOWER_EDGE_SLACK_DEGREES).toFixed(9)));
}
