/**
 * Response bodies that embed JSON texts already serialised (a page of listings whose Annonce texts
 * the store precomputed, src/core/model/present.ts annonceJson), written in the order of the fields
 * like JSON.stringify would, without parsing and serialising those texts again. The body is built
 * as bytes: the store's texts are UTF-8 bytes already.
 */
import { Readable } from 'node:stream';
import type { Context } from 'koa';
import type { JsonText } from '../../core/model/present.js';

/** An array whose items are JSON texts. */
export class JsonTexts {
  constructor(readonly items: readonly JsonText[]) {}
}

const COMMA = Buffer.from(',');

/**
 * Bodies at least this big are sent as their chunks, not copied into one Buffer first: a map answer
 * is mostly one text the store joined already, and copying it again per request doubled the
 * memory the answer allocates (garbage collection was a large part of a map request's CPU, profiled).
 */
const STREAM_FROM_BYTES = 256 * 1024;

export function serialiseBody(body: Record<string, unknown>): Buffer {
  return Buffer.concat(serialiseChunks(body));
}

/** The body as the chunks that, written one after the other, are its JSON. */
export function serialiseChunks(body: Record<string, unknown>): Buffer[] {
  const chunks: Buffer[] = [];
  let text = '{';
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined) continue;
    text += `${text === '{' ? '' : ','}${JSON.stringify(key)}:`;
    if (!(value instanceof JsonTexts)) {
      text += JSON.stringify(value);
      continue;
    }
    chunks.push(Buffer.from(`${text}[`));
    value.items.forEach((item, i) => {
      if (i > 0) chunks.push(COMMA);
      chunks.push(typeof item === 'string' ? Buffer.from(item) : item);
    });
    text = ']';
  }
  chunks.push(Buffer.from(`${text}}`));
  return chunks;
}

export function sendJson(ctx: Context, body: Record<string, unknown>): void {
  ctx.type = 'application/json; charset=utf-8';
  const chunks = serialiseChunks(body);
  const length = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  if (length < STREAM_FROM_BYTES) {
    ctx.body = Buffer.concat(chunks, length);
    return;
  }
  // A stream body has no length of its own: the exact one is set after it, so the answer keeps its
  // Content-Length (and is not sent chunked).
  ctx.body = Readable.from(chunks, { objectMode: false });
  ctx.length = length;
}
