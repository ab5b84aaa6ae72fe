/** Assembles the Koa application from its dependencies (no I/O here; see src/main.ts). */
import Koa from 'koa';
import type { AppDeps } from './state.js';
import { requestContext } from './middleware/request-context.js';
import { createRouter } from './router.js';

export function createApp(deps: AppDeps): Koa {
  const app = new Koa();
  app.proxy = false;
  // Koa's own error printer would duplicate our structured log line.
  app.silent = true;
  app.use(requestContext(deps.logger));
  const router = createRouter(deps);
  app.use(router.routes());
  app.use(router.allowedMethods({ throw: false }));
  return app;
}
