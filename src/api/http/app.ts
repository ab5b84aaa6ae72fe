/** Assembles the Koa application from its dependencies (no I/O here; see app/main.ts). */
import { constants } from 'node:zlib';
import Koa from 'koa';
import compress from 'koa-compress';
import type { AppDeps, NoExtension, RequestState } from './state.js';
import { requestContext } from './middleware/request-context.js';
import { createRouter } from './router.js';
import { methodRules } from './middleware/methods.js';

/** Below about 1 KiB compression saves less than its headers and CPU cost. */
const COMPRESS_THRESHOLD_BYTES = 1024;

export function createApp(deps: AppDeps): Koa<RequestState, NoExtension> {
  const app = new Koa<RequestState, NoExtension>();
  app.proxy = false;
  // Koa's own error printer would duplicate our structured log line.
  app.silent = true;
  app.use(requestContext(deps.logger, deps.metrics));
  // Negotiated gzip or brotli (quality 4: most of the gain of 11 for a fraction of its CPU).
  app.use(compress({ threshold: COMPRESS_THRESHOLD_BYTES, br: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }, deflate: false }));
  const router = createRouter(deps);
  app.use(methodRules(router));
  app.use(router.routes());
  return app;
}
