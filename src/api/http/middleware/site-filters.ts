/**
 * Refuses site filters (and /sources) to offers without them, 402 PAID_PLAN_REQUIRED, before
 * `meter`: a refused request takes no daily request token.
 */
import type { Context, Next } from 'koa';
import type { Caller } from '../state.js';
import { paidPlanRequired, type SiteFilterInput } from '../../routes/shared/scope.js';

export function siteFiltersOffer(options: { always?: boolean } = {}) {
  return async function siteFiltersOfferMiddleware(ctx: Context, next: Next): Promise<void> {
    const params = (ctx.state.params ?? {}) as SiteFilterInput;
    const used = options.always || params.sources !== undefined || params.exclude_sources !== undefined;
    if (used && !(ctx.state.caller as Caller).offer.siteFilters) throw paidPlanRequired();
    await next();
  };
}
