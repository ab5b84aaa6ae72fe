/** GET /annonces: paginated search (page or cursor), grouped duplicates by default. */
import type { ApiContext, AppDeps } from '../../http/state.js';
import type { SearchQuery, SortPosition } from '../../../core/query/query.js';
import { badRequest } from '../../http/errors.js';
import { annonceJson } from '../../../core/model/present.js';
import { JsonTexts, sendJson } from '../../http/json-body.js';
import { toListingFilter } from '../shared/listing-filter.js';
import { decodeCursorParam } from '../shared/cursor-param.js';
import { requestScope } from '../shared/scope.js';
import type { SearchParams } from './schema.js';
import { presentFacets } from './facets.js';

export function searchListings(deps: AppDeps) {
  return async function searchListingsHandler(ctx: ApiContext, params: SearchParams): Promise<void> {
    const cursorKind = `search:${params.sort}`;
    // A search cursor carries the sort position and the number of the page it opens.
    const fromCursor = params.cursor ? splitPage(decodeCursorParam(deps.cursors, cursorKind, params.cursor)) : null;
    const pageNumber = fromCursor ? fromCursor.page : params.page;
    const query: SearchQuery = {
      filter: toListingFilter(params),
      scope: requestScope(ctx, params, deps.sites),
      grouped: params.dedup !== '0' && params.dedup !== 'false',
      ...searchOrder(params),
      pageSize: params.page_size,
      // docs/api.md: the cursor takes precedence over page when both are sent.
      page: fromCursor ? 1 : params.page,
      after: fromCursor ? fromCursor.position : null,
    };
    // Facets count listings without delivering any: they cost no listing quota (docs/api.md "Facets").
    const [result, facets] = await Promise.all([
      deps.listings.search(query),
      params.facets ? deps.listings.facets({ filter: query.filter, scope: query.scope, grouped: query.grouped, facets: params.facets }) : null,
    ]);
    ctx.state.delivered = result.items.map((l) => l.id);
    sendJson(ctx, {
      page: pageNumber,
      page_size: params.page_size,
      has_more: result.hasMore,
      next_cursor: result.hasMore && result.last ? deps.cursors.encode(cursorKind, [...result.last, pageNumber + 1]) : null,
      total: facets?.total,
      facets: facets ? presentFacets(facets) : undefined,
      items: new JsonTexts(result.items.map(annonceJson)),
    });
  };
}

/** The order of a search: one of the sorts, or by distance from `centre` (SearchQuery.distanceFrom). */
export function searchOrder(params: SearchParams): Pick<SearchQuery, 'sort' | 'distanceFrom'> {
  // With distanceFrom the engines rank by distance; `recent` only fills the field.
  return params.sort === 'distance' ? { sort: 'recent', distanceFrom: params.centre } : { sort: params.sort };
}

function splitPage(decoded: SortPosition): { position: SortPosition; page: number } {
  const page = decoded.at(-1);
  if (typeof page !== 'number' || decoded.length < 2) throw badRequest([{ field: 'cursor', message: 'malformed cursor' }]);
  return { position: decoded.slice(0, -1), page };
}
