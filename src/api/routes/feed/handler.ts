/**
 * GET /annonces/feed: the change feed, ordered by (changed_at, change_seq), site listings one by one.
 * Only listings changed at least FEED_SETTLE_SECONDS ago are served: a write batch that commits late
 * with an earlier changed_at would otherwise land behind a cursor that already passed it (docs/api.md: the
 * safety delay of about 2 minutes, so that none is skipped).
 */
import type { ApiContext, AppDeps } from '../../http/state.js';
import { annonceJson } from '../../../core/model/present.js';
import { StoreUnavailableError } from '../../../core/ports/store-unavailable.js';
import { toListingFilter } from '../shared/listing-filter.js';
import { decodeCursorParam } from '../shared/cursor-param.js';
import { sendFlowPage } from '../shared/flow-page.js';
import { requestScope } from '../shared/scope.js';
import type { FeedParams } from './schema.js';

const CURSOR_KIND = 'feed';

export function readFeed(deps: AppDeps) {
  return async function readFeedHandler(ctx: ApiContext, params: FeedParams): Promise<void> {
    const after = params.cursor ? decodeCursorParam(deps.cursors, CURSOR_KIND, params.cursor) : null;
    const scope = requestScope(ctx, params, deps.sites);
    try {
      const result = await deps.listings.feed({
        filter: toListingFilter(params),
        scope,
        changedUntil: deps.now() - deps.feedSettleMs,
        pageSize: params.page_size,
        after,
      });
      sendFlowPage(ctx, deps, CURSOR_KIND, result, after, annonceJson);
    } catch (error) {
      if (!(error instanceof StoreUnavailableError)) throw error;
      // docs/api.md: next_cursor is null only when the data store is momentarily unavailable.
      ctx.status = 503;
      ctx.set('Retry-After', '5');
      ctx.body = {
        error: 'The listings store is temporarily unavailable; retry with the same cursor.',
        code: 'SERVICE_UNAVAILABLE',
        items: [],
        count: 0,
        has_more: false,
        next_cursor: null,
      };
    }
  };
}
