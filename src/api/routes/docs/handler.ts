/** GET /openapi.json (no key): the OpenAPI document, generated once from the route schemas. */
import type { Context } from 'koa';
import type { AppDeps } from '../../http/state.js';
import { openApiDocument } from '../../http/openapi.js';

export function serveOpenApi(deps: AppDeps) {
  const text = JSON.stringify(openApiDocument(deps.version));
  return async function serveOpenApiHandler(ctx: Context): Promise<void> {
    ctx.type = 'application/json; charset=utf-8';
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = text;
  };
}
