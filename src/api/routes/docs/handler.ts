/** GET /openapi.json (no key): the OpenAPI document, serialised once when the router is built. */
import type { ApiContext } from '../../http/state.js';

export function serveOpenApi(document: Record<string, unknown>) {
  const text = JSON.stringify(document);
  return async function serveOpenApiHandler(ctx: ApiContext): Promise<void> {
    ctx.type = 'application/json; charset=utf-8';
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = text;
  };
}
