/** API keys: generated with 192 random bits, stored as SHA-256, compared by hash lookup. */
import { createHash, randomBytes } from 'node:crypto';

export const KEY_PREFIX = 'ak_';

export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(24).toString('base64url');
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** The non-secret part shown to operators and in `/ping` when the key has no name. */
export function keyPrefix(key: string): string {
  return key.slice(0, KEY_PREFIX.length + 6);
}

/** Access start date: the creation day (UTC) minus the history window, `YYYY-MM-DD`. */
export function accessStartDate(createdAt: Date, historyDays: number): string {
  const start = new Date(Date.UTC(createdAt.getUTCFullYear(), createdAt.getUTCMonth(), createdAt.getUTCDate()));
  start.setUTCDate(start.getUTCDate() - historyDays);
  return start.toISOString().slice(0, 10);
}
