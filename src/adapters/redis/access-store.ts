/**
 * Redis AccessStore (REDIS_URL): accounts and keys in hashes, quota counters in sorted sets updated
 * by Lua scripts. Every key starts with `keyPrefix`, so several deployments (or test runs) share a
 * Redis without touching each other's data.
 */
import type { Redis } from 'ioredis';
import type { AccessHealth, AccessStore, Admission, ListingLimits, UsageScope } from '../../core/ports/access-store.js';
import { REDIS_BACKEND } from './client.js';
import { RedisAccountStore } from './account-store.js';
import { RedisUsageCounters } from './usage-counters.js';
import { AccountsWitness } from './accounts-witness.js';

/** Errors of a Redis that answers but refuses writes (failed RDB save, read-only replica, maxmemory, missing replicas). */
const REFUSES_WRITES = /^(MISCONF|READONLY|OOM|NOREPLICAS)/;

export class RedisAccessStore extends RedisAccountStore implements AccessStore {
  readonly backend = REDIS_BACKEND;
  private readonly usage: RedisUsageCounters;

  private readonly witness: AccountsWitness;

  /**
   * The store does not own `client` when `ownsClient` is false (the rate limiter shares it).
   * `witnessFile`: where it remembers across restarts that it held accounts (accounts-witness.ts).
   */
  constructor(
    client: Redis,
    keyPrefix: string,
    private readonly ownsClient = true,
    witnessFile: string | null = null,
  ) {
    super(client, keyPrefix);
    this.usage = new RedisUsageCounters(client, keyPrefix);
    this.witness = new AccountsWitness(witnessFile, keyPrefix);
  }

  admit(scope: UsageScope, admission: Admission) {
    return this.usage.admit(scope, admission);
  }
  consumeListings(scope: UsageScope, ids: readonly string[], limits: ListingLimits) {
    return this.usage.consumeListings(scope, ids, limits);
  }
  readUsage(scope: UsageScope) {
    return this.usage.readUsage(scope);
  }

  /** Counter entries kept for an account: members of its sets plus its keys (tests of bounded growth). */
  async footprint(accountId: string): Promise<number> {
    const [day, month, meta] = this.usage.keysOf(accountId);
    const [members, keys] = await Promise.all([Promise.all([this.client.zcard(day), this.client.zcard(month)]), this.client.exists(day, month, meta)]);
    return members[0] + members[1] + keys;
  }

  /**
   * Degraded when Redis cannot be reached, refuses writes (every metered request would fail), or has
   * lost the accounts it held (a restart without persistence: every key is then a 401).
   */
  async health(): Promise<AccessHealth> {
    const started = Date.now();
    let accounts: number;
    try {
      accounts = await this.client.scard(this.key('accounts'));
      await this.client.set(this.key('health-probe'), String(started), 'PX', 60_000);
    } catch (error) {
      const message = (error as Error).message;
      if (REFUSES_WRITES.test(message)) return { ok: false, backend: this.backend, detail: `Redis refuses writes, so no request can be metered: ${message}` };
      return { ok: false, backend: this.backend, detail: `Redis unreachable (${this.client.status}): ${message}` };
    }
    if (accounts > 0) this.witness.saw();
    else if (this.witness.seen()) {
      return {
        ok: false,
        backend: this.backend,
        detail:
          'Redis holds no account although it held some: its data was lost (a restart without persistence, a flush or an eviction); every key is refused with 401 until the accounts are restored (docs/operations.md, Redis)',
      };
    }
    return { ok: true, backend: this.backend, detail: `${accounts} account(s), read and write ${Date.now() - started} ms` };
  }

  async close(): Promise<void> {
    if (!this.ownsClient) return;
    await this.client.quit().catch(() => this.client.disconnect());
  }
}
