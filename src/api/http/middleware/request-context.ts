/**
 * First middleware: a request id (echoed in `X-Request-Id`), one structured log line per request,
 * and the rendering of every error as a JSON body. Unknown errors are logged and answered 500 without
 * details; backend outages become 503 SERVICE_UNAVAILABLE. With metrics on, it counts the request
 * by route and status, its latency, and the quota and rate refusals.
 */
import { randomUUID } from 'node:crypto';
import type { Next } from 'koa';
import type pino from 'pino';
import { ApiError, serviceUnavailable } from '../errors.js';
import { StoreBusyError, StoreUnavailableError } from '../../../core/ports/store-unavailable.js';
import { AccessUnavailableError } from '../../../core/ports/access-store.js';
import type { ApiMetrics } from '../metrics.js';
import type { AppContext } from '../state.js';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

export function requestContext(logger: pino.Logger, metrics?: ApiMetrics) {
  // The request line's fields are fixed below: no header, no query string, no listing content, only
  // the key's public prefix. Redaction (the logger's paths, wildcards included) has nothing to remove
  // from it and cost about as much as writing it; error lines keep it.
  const requestLines = logger.child({}, { redact: [] });
  return async function requestContextMiddleware(ctx: AppContext, next: Next): Promise<void> {
    const started = process.hrtime.bigint();
    const incoming = ctx.get('X-Request-Id');
    const requestId = REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    // Every body is JSON: browsers must not guess another type from its content.
    ctx.set('X-Content-Type-Options', 'nosniff');
    let failure: unknown;
    try {
      await next();
      if (ctx.body === undefined && ctx.status === 404) throw new ApiError(404, 'NOT_FOUND', `No route for ${ctx.method} ${ctx.path}`);
    } catch (error) {
      failure = error;
      renderError(ctx, error);
    }
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const line = {
      req_id: requestId,
      method: ctx.method,
      path: ctx.path,
      status: ctx.status,
      ms: Math.round(ms * 10) / 10,
      account: ctx.state.caller?.account.id,
      key: ctx.state.caller?.key.prefix,
    };
    if (ctx.status >= 500) logger.error({ ...line, err: failure }, 'request failed');
    else requestLines.info(line, 'request');
    if (!metrics) return;
    // The route pattern, never the raw path: one series per route, whatever callers send.
    metrics.observeRequest(String(ctx._matchedRoute ?? 'unmatched'), ctx.method, ctx.status, ms / 1000);
    if (ctx.status === 402 || ctx.status === 429) metrics.countRefusal(String((ctx.body as { code?: unknown } | undefined)?.code ?? 'none'));
  };
}

function renderError(ctx: AppContext, error: unknown): void {
  let apiError: ApiError;
  if (error instanceof ApiError) apiError = error;
  else if (error instanceof StoreBusyError)
    apiError = new ApiError(503, 'SERVICE_UNAVAILABLE', error.reason, {}, { 'Retry-After': String(error.retryAfterSeconds) });
  else if (error instanceof StoreUnavailableError) apiError = serviceUnavailable('listings store');
  else if (error instanceof AccessUnavailableError) apiError = serviceUnavailable('access store');
  else if (isClientHttpError(error)) apiError = new ApiError(error.status, 'BAD_REQUEST', error.message, { details: [] });
  else apiError = new ApiError(500, 'INTERNAL_ERROR', 'Internal error; the request id identifies it in our logs.');
  ctx.status = apiError.status;
  for (const [name, value] of Object.entries(apiError.headers)) ctx.set(name, value);
  ctx.body = apiError.body();
}

function isClientHttpError(error: unknown): error is { status: number; message: string } {
  const status = (error as { status?: unknown })?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
}
