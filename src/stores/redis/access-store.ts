/**
 * Redis AccessStore (REDIS_URL): accounts and keys in hashes, quota counters in sorted sets updated
 * by Lua scripts. Every key starts with `keyPrefix`, so several deployments (or test runs) share a
 * Redis without touching each other's data.
 */
import type { Redis } from 'ioredis';
import type { AccessHealth, AccessStore, Admission, ListingLimits, UsageScope } from '../access-store.js';
import { REDIS_BACKEND } from './client.js';
import { RedisAccountStore } from './account-store.js';
import { RedisUsageCounters } from './usage-counters.js';

export class RedisAccessStore extends RedisAccountStore implements AccessStore {
  readonly backend = REDIS_BACKEND;
  private readonly usage: RedisUsageCounters;

  /** The store does not own `client` when `ownsClient` is false (the rate limiter shares it). */
  constructor(client: Redis, keyPrefix: string, private readonly ownsClient = true) {
    super(client, keyPrefix);
    this.usage = new RedisUsageCounters(client, keyPrefix);
  }

  admit(scope: UsageScope, admission: Admission) { return this.usage.admit(scope, admission); }
  consumeListings(scope: UsageScope, ids: readonly string[], limits: ListingLimits) { return this.usage.consumeListings(scope, ids, limits); }
  readUsage(scope: UsageScope) { return this.usage.readUsage(scope); }

  /** Counter entries kept for an account: members of its sets plus its keys (tests of bounded growth). */
  async footprint(accountId: string): Promise<number> {
    const [day, month, meta] = this.usage.keysOf(accountId);
    const [members, keys] = await Promise.all([
      Promise.all([this.client.zcard(day), this.client.zcard(month)]),
      this.client.exists(day, month, meta),
    ]);
    return members[0] + members[1] + keys;
  }

  async health(): Promise<AccessHealth> {
    try {
      const started = Date.now();
      await this.client.ping();
      return { ok: true, backend: this.backend, detail: `ping ${Date.now() - started} ms` };
    } catch (error) {
      return { ok: false, backend: this.backend, detail: `Redis unreachable (${this.client.status}): ${(error as Error).message}` };
    }
  }

  async close(): Promise<void> {
    if (!this.ownsClient) return;
    await this.client.quit().catch(() => this.client.disconnect());
  }
}
