/**
 * Refuses site filters (and /sources) to offers without them, 402 PAID_PLAN_REQUIRED, before
 * `meter`: a refused request takes no daily request token. `params` reads the route's validated
 * parameters; `always` refuses whatever they are.
 */
import type { Context, Next } from 'koa';
import type { Caller } from '../state.js';
import { paidPlanRequired, type SiteFilterInput } from '../../routes/shared/scope.js';

export function siteFiltersOffer(options: { always?: boolean; params?: (ctx: Context) => SiteFilterInput } = {}) {
  return async function siteFiltersOfferMiddleware(ctx: Context, next: Next): Promise<void> {
    const params = options.params?.(ctx) ?? {};
    const used = options.always || params.sources !== undefined || params.exclude_sources !== undefined;
    if (used && !(ctx.state.caller as Caller).offer.siteFilters) throw paidPlanRequired();
    await next();
  };
}
