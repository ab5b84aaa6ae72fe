/**
 * Response bodies that embed JSON texts already serialised (a page of listings whose Annonce texts
 * the store precomputed, src/core/model/present.ts annonceJson), written in the order of the fields
 * like JSON.stringify would, without parsing and serialising those texts again. The body is built
 * as bytes: the store's texts are UTF-8 bytes already.
 */
import type { Context } from 'koa';
import type { JsonText } from '../../core/model/present.js';

/** An array whose items are JSON texts. */
export class JsonTexts {
  constructor(readonly items: readonly JsonText[]) {}
}

/** A value that is one JSON text (a listing's detail: its stored Annonce text). */
export class JsonTextValue {
  constructor(readonly text: JsonText) {}
}

const COMMA = Buffer.from(',');
const bytesOf = (text: JsonText) => (typeof text === 'string' ? Buffer.from(text) : text);

export function serialiseBody(body: Record<string, unknown>): Buffer {
  const chunks: Buffer[] = [];
  let text = '{';
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined) continue;
    text += `${text === '{' ? '' : ','}${JSON.stringify(key)}:`;
    if (value instanceof JsonTextValue) {
      chunks.push(Buffer.from(text), bytesOf(value.text));
      text = '';
      continue;
    }
    if (!(value instanceof JsonTexts)) {
      text += JSON.stringify(value);
      continue;
    }
    chunks.push(Buffer.from(`${text}[`));
    value.items.forEach((item, i) => {
      if (i > 0) chunks.push(COMMA);
      chunks.push(bytesOf(item));
    });
    text = ']';
  }
  chunks.push(Buffer.from(`${text}}`));
  return Buffer.concat(chunks);
}

export function sendJson(ctx: Context, body: Record<string, unknown>): void {
  ctx.type = 'application/json; charset=utf-8';
  ctx.body = serialiseBody(body);
}
