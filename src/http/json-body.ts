/**
 * Response bodies that embed JSON texts already serialised (a page of listings whose Annonce texts
 * the store precomputed, src/listings/present.ts annonceJson), written in the order of the fields
 * like JSON.stringify would, without parsing and serialising those texts again.
 */
import type { Context } from 'koa';

/** An array whose items are JSON texts. */
export class JsonTexts {
  constructor(readonly items: readonly string[]) {}
}

export function serialiseBody(body: Record<string, unknown>): string {
  const members: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined) continue;
    const text = value instanceof JsonTexts ? `[${value.items.join(',')}]` : JSON.stringify(value);
    members.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${members.join(',')}}`;
}

export function sendJson(ctx: Context, body: Record<string, unknown>): void {
  ctx.type = 'application/json; charset=utf-8';
  ctx.body = serialiseBody(body);
}
