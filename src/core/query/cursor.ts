/**
 * Opaque cursors: the sort position, bound to the flow and sort it was made for, signed with HMAC so
 * a client cannot forge a position or reuse a cursor of another sort. At most 500 characters (docs/api.md).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SortPosition } from './query.js';

export class CursorError extends Error {}

export class CursorCodec {
  constructor(private readonly secret: string) {}

  /** `kind` names the flow and sort (`search:recent`, `feed`, `retirees`). */
  encode(kind: string, position: SortPosition): string {
    const payload = Buffer.from(JSON.stringify({ k: kind, p: position })).toString('base64url');
    return `${payload}.${this.sign(payload)}`;
  }

  decode(kind: string, cursor: string): SortPosition {
    const [payload, signature, extra] = cursor.split('.');
    if (!payload || !signature || extra !== undefined) throw new CursorError('malformed cursor');
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw new CursorError('invalid cursor signature');
    let decoded: unknown;
    try {
      decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      throw new CursorError('malformed cursor');
    }
    const { k, p } = (decoded ?? {}) as { k?: unknown; p?: unknown };
    if (k !== kind) throw new CursorError(`cursor was made for ${String(k)}, not ${kind}`);
    if (!Array.isArray(p) || !p.every((v) => typeof v === 'number' || typeof v === 'string')) throw new CursorError('malformed cursor');
    return p as SortPosition;
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.secret).update(payload).digest('base64url').slice(0, 22);
  }
}
