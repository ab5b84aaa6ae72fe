/**
 * docs/api.md "Accounts and keys": the key in `X-Api-Key` or `Authorization: Bearer`. 401 API_KEY_MISSING
 * without a key, API_KEY_INVALID for an unknown, revoked or blocked key. Keys are looked up by their
 * SHA-256 (the key itself is never stored nor logged). Sets `X-Annonces-From` on every answer, and
 * `Cache-Control: no-store` since keyed answers are per-account data (a route may relax it, like PTZ).
 */
import type { Next } from 'koa';
import { ApiError } from '../errors.js';
import { hashApiKey } from '../../access/keys.js';
import type { ApiContext, AppDeps } from '../state.js';
import type { Caller } from '../../access/caller.js';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

export function authenticate(deps: AppDeps) {
  return async function authenticateMiddleware(ctx: ApiContext, next: Next): Promise<void> {
    ctx.set('Cache-Control', 'no-store');
    const key = readKey(ctx);
    if (!key) throw new ApiError(401, 'API_KEY_MISSING', 'An API key is required in the X-Api-Key header (or Authorization: Bearer).');
    const found = key.length <= 256 ? await deps.access.findKeyWithAccount(hashApiKey(key)) : null;
    if (found?.key.status !== 'active') throw new ApiError(401, 'API_KEY_INVALID', 'The API key is invalid, revoked or blocked.');
    const record = found.key;
    const account = found.account;
    const offer = account ? deps.offers.get(account.offer) : undefined;
    if (!account || !offer) throw new ApiError(401, 'API_KEY_INVALID', 'The API key is invalid, revoked or blocked.');
    const caller: Caller = { account, offer, key: record, enteredFrom: Date.parse(`${account.annonces_from}T00:00:00Z`) };
    ctx.state.caller = caller;
    ctx.set('X-Annonces-From', account.annonces_from);
    await next();
  };
}

function readKey(ctx: ApiContext): string | null {
  const headerKey = ctx.get('X-Api-Key').trim();
  if (headerKey) return headerKey;
  const match = BEARER.exec(ctx.get('Authorization'));
  return match ? match[1] : null;
}
