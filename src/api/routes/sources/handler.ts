/** GET /sources: the configured sites (paid offers only, docs/api.md). */
import { callerOf, type ApiContext, type AppDeps } from '../../http/state.js';
import { paidPlanRequired } from '../shared/scope.js';
import type { SourcesAnswer } from './schema.js';

export function listSources(deps: AppDeps) {
  return async function listSourcesHandler(ctx: ApiContext): Promise<void> {
    if (!callerOf(ctx).offer.siteFilters) throw paidPlanRequired();
    const items = deps.sites.sites.map((s) => ({ source: s.source, name: s.name, url: s.url, priority: s.priority }));
    ctx.body = { items, count: items.length } satisfies SourcesAnswer;
  };
}
