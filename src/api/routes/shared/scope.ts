/**
 * Who may see what: the access start date of the caller's account and the eligible sites resolved
 * from `sources` / `exclude_sources` with the six rules of docs/api.md "Rules of each endpoint".
 */
import { ApiError, badRequest } from '../../http/errors.js';
import { callerOf, type ApiContext } from '../../http/state.js';
import type { Caller } from '../../access/caller.js';
import type { Scope } from '../../../core/query/query.js';
import type { SiteCatalog } from '../../../core/model/sites.js';

export interface SiteFilterInput {
  sources?: string[];
  exclude_sources?: string[];
}

export interface ResolvedSites {
  /** null: no site filter, every site. */
  eligible: string[] | null;
  unknown: string[];
}

export function resolveSites(input: SiteFilterInput, caller: Caller, sites: SiteCatalog): ResolvedSites {
  const { sources, exclude_sources: excluded } = input;
  if (!sources && !excluded) return { eligible: null, unknown: [] };
  if (!caller.offer.siteFilters) throw paidPlanRequired();
  const unknown = [...(sources ?? []), ...(excluded ?? [])].filter((s) => !sites.has(s));
  if (excluded && !excluded.some((s) => sites.has(s))) {
    throw badRequest([{ field: 'exclude_sources', message: 'none of the sites to exclude exists (see GET /sources)' }]);
  }
  const kept = sources ? sites.ids.filter((id) => sources.includes(id)) : sites.ids;
  const eligible = kept.filter((id) => !excluded?.includes(id));
  if (eligible.length === 0) {
    throw badRequest([{ field: sources ? 'sources' : 'exclude_sources', message: 'the site filter leaves no site (see GET /sources)' }]);
  }
  return { eligible, unknown: [...new Set(unknown)] };
}

export function paidPlanRequired(): ApiError {
  return new ApiError(402, 'PAID_PLAN_REQUIRED', 'Site filters and /sources need an offer from 118,80 EUR TTC per month (Département and above).');
}

/** Resolves the scope of a listing request and sets `X-Unknown-Sources` when needed. */
export function requestScope(ctx: ApiContext, input: SiteFilterInput, sites: SiteCatalog): Scope {
  const caller = callerOf(ctx);
  const resolved = resolveSites(input, caller, sites);
  if (resolved.unknown.length) ctx.set('X-Unknown-Sources', resolved.unknown.join(',').slice(0, 1000));
  return { enteredFrom: caller.enteredFrom, eligibleSites: resolved.eligible };
}
