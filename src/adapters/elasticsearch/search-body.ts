/**
 * GET /annonces as an Elasticsearch search body (pure: the golden tests compare it whole).
 *
 * Sorts: every sort ends with the unique `id` in the sort's direction, so keyset pages never skip or
 * repeat listings with equal keys. Unknown values sort last through a sentinel `missing` value, the
 * same sentinels as the SQLite adapter (src/adapters/sqlite-listings/read/sorts.ts: 1e18 ascending, -1 descending),
 * rather than `missing: "_last"`: with `_last`, the sort value Elasticsearch reports for a listing
 * without a price is +-Infinity (double fields) or Long.MAX_VALUE (long and date fields), neither a
 * plain JSON number that a JavaScript cursor carries back exactly into `search_after`; a sentinel
 * comes back as itself. The order is the same (no real price, surface or price per m2 reaches 1e18
 * or goes below 0), and a position ([sort key, id]) is identical on both backends.
 */
import type { estypes } from '@elastic/elasticsearch';
import type { SearchQuery, SortName, SortPosition } from '../../core/query/query.js';
import type { LatLon } from '../../core/query/geo.js';
import { PRESENTED_PAGE_FIELDS } from './read-model.js';
import { boolQuery, filterClauses, searchScope } from './query-clauses.js';

export type SearchBody = Omit<estypes.SearchRequest, 'index'>;

export const MISSING_LAST_ASC = 1e18;
export const MISSING_LAST_DESC = -1;

export const SEARCH_SORTS: Record<SortName, estypes.SortCombinations[]> = {
  // updated_at is always known: no sentinel needed.
  recent: [{ updated_at: { order: 'desc' } }, { id: { order: 'desc' } }],
  price_asc: [{ 'content.price': { order: 'asc', missing: MISSING_LAST_ASC } }, { id: { order: 'asc' } }],
  price_desc: [{ 'content.price': { order: 'desc', missing: MISSING_LAST_DESC } }, { id: { order: 'desc' } }],
  surface_desc: [{ 'content.surface': { order: 'desc', missing: MISSING_LAST_DESC } }, { id: { order: 'desc' } }],
  pricem2_asc: [{ 'content.price_per_m2': { order: 'asc', missing: MISSING_LAST_ASC } }, { id: { order: 'asc' } }],
};

export function buildSearchBody(query: SearchQuery): SearchBody {
  const scope = searchScope(query.scope, query.grouped);
  const located = query.distanceFrom ? [LOCATED] : [];
  const body: SearchBody = {
    query: boolQuery([...scope.filter, ...filterClauses(query.filter), ...located], scope.mustNot),
    sort: query.distanceFrom ? distanceSort(query.distanceFrom) : SEARCH_SORTS[query.sort],
    // One more than the page: its presence says whether there is a next page, without counting.
    size: query.pageSize + 1,
    track_total_hits: false,
    ...PRESENTED_PAGE_FIELDS,
  };
  if (query.after) body.search_after = checkPosition(query.after, ['number', 'string']);
  // Page mode only: from + size stays within index.max_result_window (page 1000 x 100 + 1 = 100 001).
  else body.from = (query.page - 1) * query.pageSize;
  return body;
}

/** `sort=distance` ranks the listings with coordinates only, as on SQLite. */
const LOCATED = { exists: { field: 'location' } };

/** Nearest first (arc distance in metres, as the SQLite adapter computes it), then by id. */
export function distanceSort(centre: LatLon): estypes.SortCombinations[] {
  return [
    { _geo_distance: { location: { lat: centre.lat, lon: centre.lon }, order: 'asc', unit: 'm', distance_type: 'arc', mode: 'min' } },
    { id: { order: 'asc' } },
  ];
}

/** A position comes from a signed cursor, but a wrong shape would be a 400 from the cluster: fail here, clearly. */
export function checkPosition(position: SortPosition, types: ('number' | 'string')[]): estypes.SortResults {
  if (position.length !== types.length || !position.every((value, i) => typeof value === types[i])) {
    throw new TypeError(`sort position ${JSON.stringify(position)} is not [${types.join(', ')}]`);
  }
  return position;
}
