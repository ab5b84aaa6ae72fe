/** GET /health (no key): 200 when both stores answer, 503 `degraded` otherwise. */
import type { ApiContext, AppDeps } from '../../http/state.js';
import type { HealthAnswer } from './schema.js';

export function health(deps: AppDeps) {
  return async function healthHandler(ctx: ApiContext): Promise<void> {
    const [listings, access] = await Promise.all([
      deps.listings.health().catch((e: Error) => ({ ok: false, backend: deps.listings.backend, detail: e.message })),
      deps.access.health().catch((e: Error) => ({ ok: false, backend: deps.access.backend, detail: e.message })),
    ]);
    const ok = listings.ok && access.ok;
    ctx.status = ok ? 200 : 503;
    ctx.body = {
      status: ok ? 'ok' : 'degraded',
      version: deps.version,
      time: new Date(deps.now()).toISOString(),
      checks: { listings, access },
    } satisfies HealthAnswer;
  };
}
