/** GET /annonces/retirees: listings that left the market, oldest first, with `withdrawn_at` and `reason`. */
import type { ApiContext, AppDeps } from '../../http/state.js';
import { withdrawnJson } from '../../../core/model/present.js';
import { decodeCursorParam } from '../shared/cursor-param.js';
import { sendFlowPage } from '../shared/flow-page.js';
import { requestScope } from '../shared/scope.js';
import type { WithdrawnParams } from './schema.js';

const CURSOR_KIND = 'retirees';

export function listWithdrawn(deps: AppDeps) {
  return async function listWithdrawnHandler(ctx: ApiContext, params: WithdrawnParams): Promise<void> {
    const after = params.cursor ? decodeCursorParam(deps.cursors, CURSOR_KIND, params.cursor) : null;
    const result = await deps.listings.withdrawn({
      scope: requestScope(ctx, params, deps.sites),
      changedUntil: deps.now() - deps.feedSettleMs,
      pageSize: params.page_size,
      after,
    });
    sendFlowPage(ctx, deps, CURSOR_KIND, result, after, withdrawnJson);
  };
}
