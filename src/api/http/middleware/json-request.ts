/**
 * Reads the JSON body of a write (POST /alertes): `Content-Type: application/json` or 415, at most
 * `limitBytes` or 413 (read no further), a JSON object or 400 on `body`. The parsed value goes to
 * `ctx.state.body`, for the route's validation.
 */
import type { Next } from 'koa';
import type { ApiContext } from '../state.js';
import { ApiError, badRequest } from '../errors.js';

export function jsonRequest(limitBytes: number) {
  return async function jsonRequestMiddleware(ctx: ApiContext, next: Next): Promise<void> {
    if (!ctx.request.is('application/json')) {
      throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'The body must be JSON, sent with Content-Type: application/json.');
    }
    const text = await readText(ctx, limitBytes);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (error) {
      throw badRequest([{ field: 'body', message: `is not valid JSON (${(error as Error).message.slice(0, 120)})` }]);
    }
    if (!isJsonObject(body)) throw badRequest([{ field: 'body', message: 'must be a JSON object' }]);
    ctx.state.body = body;
    await next();
  };
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function tooLarge(limitBytes: number): ApiError {
  return new ApiError(413, 'PAYLOAD_TOO_LARGE', `The body is larger than ${limitBytes} bytes.`);
}

async function readText(ctx: ApiContext, limitBytes: number): Promise<string> {
  const declared = ctx.request.length;
  if (declared !== undefined && declared > limitBytes) throw tooLarge(limitBytes);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > limitBytes) {
      // Close the connection rather than read a body nobody will use.
      ctx.set('Connection', 'close');
      throw tooLarge(limitBytes);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
