/** GET /annonces/map: at most 2 000 points in a box, the exact total and whether it was capped. */
import type { ApiContext, AppDeps } from '../../http/state.js';
import { JsonTexts, sendJson } from '../../http/json-body.js';
import { toListingFilter } from '../shared/listing-filter.js';
import { requestScope } from '../shared/scope.js';
import type { MapParams } from './schema.js';

export const MAP_POINT_LIMIT = 2000;

export function mapPoints(deps: AppDeps) {
  return async function mapPointsHandler(ctx: ApiContext, params: MapParams): Promise<void> {
    const result = await deps.listings.map({
      filter: toListingFilter(params),
      scope: requestScope(ctx, params, deps.sites),
      grouped: params.dedup !== '0' && params.dedup !== 'false',
      bbox: params.bbox,
      limit: MAP_POINT_LIMIT,
    });
    // The store's point texts are the items as they are (ListingReader.map).
    sendJson(ctx, {
      bbox: params.bbox,
      total: result.total,
      capped: result.total > result.count,
      sampling: result.sampling ?? null,
      items: new JsonTexts(result.texts),
    });
  };
}
