/**
 * Refuses site filters (and /sources) to offers without them, 402 PAID_PLAN_REQUIRED, before
 * `meter`: a refused request takes no daily request token. `uses` says whether the request filters
 * sites (from the route's validated parameters), or is about the sites whatever it sends (/sources).
 */
import type { Next } from 'koa';
import { callerOf, type ApiContext } from '../state.js';
import { paidPlanRequired } from '../../routes/shared/scope.js';

export function siteFiltersOffer(uses: (ctx: ApiContext) => boolean) {
  return async function siteFiltersOfferMiddleware(ctx: ApiContext, next: Next): Promise<void> {
    if (uses(ctx) && !callerOf(ctx).offer.siteFilters) throw paidPlanRequired();
    await next();
  };
}

/** Whether parsed parameters filter sites (`sources` or `exclude_sources` given). */
export function filtersSites(params: unknown): boolean {
  if (typeof params !== 'object' || params === null) return false;
  return ('sources' in params && params.sources !== undefined) || ('exclude_sources' in params && params.exclude_sources !== undefined);
}
