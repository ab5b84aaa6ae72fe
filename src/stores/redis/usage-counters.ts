/** Quota counters on Redis: one Lua script per call (src/stores/redis/usage-scripts.ts). */
import type { Redis, Result } from 'ioredis';
import {
  monthWindowTag, type Admission, type ListingLimits, type UsageCounters, type UsageRefusal, type UsageScope, type UsageSnapshot,
} from '../access-store.js';
import { guarded } from './client.js';
import { ADMIT_SCRIPT, CONSUME_SCRIPT, type UsageReply } from './usage-scripts.js';

declare module 'ioredis' {
  interface RedisCommander<Context> {
    annoncesUsageAdmit(day: string, month: string, meta: string, ...args: string[]): Result<UsageReply, Context>;
    annoncesUsageConsume(day: string, month: string, meta: string, ...args: string[]): Result<UsageReply, Context>;
  }
}

export class RedisUsageCounters implements UsageCounters {
  constructor(private readonly client: Redis, private readonly keyPrefix: string) {
    // defineCommand sends EVALSHA and falls back to EVAL after a Redis restart emptied the script cache.
    client.defineCommand('annoncesUsageAdmit', { numberOfKeys: 3, lua: ADMIT_SCRIPT });
    client.defineCommand('annoncesUsageConsume', { numberOfKeys: 3, lua: CONSUME_SCRIPT });
  }

  /** The keys of one account; the `{account}` hash tag keeps them in one slot on a Redis Cluster. */
  keysOf(accountId: string): [string, string, string] {
    const base = `${this.keyPrefix}usage:{${accountId}}`;
    return [`${base}:day`, `${base}:month`, `${base}:meta`];
  }

  async admit(scope: UsageScope, admission: Admission): Promise<{ refused: UsageRefusal | null; usage: UsageSnapshot }> {
    const items = admission.items;
    const reply = await guarded(() => this.client.annoncesUsageAdmit(...this.keysOf(scope.accountId), ...windowArgs(scope),
      optional(admission.requestLimit), items ? String(items.day) : '', optional(items?.month ?? null), admission.take ? '1' : '0'));
    return { refused: (reply[0] || null) as UsageRefusal | null, usage: snapshotOf(reply) };
  }

  async consumeListings(scope: UsageScope, ids: readonly string[], limits: ListingLimits) {
    const reply = await guarded(() => this.client.annoncesUsageConsume(...this.keysOf(scope.accountId), ...windowArgs(scope),
      String(limits.day), optional(limits.month), ...ids));
    return { refused: (reply[0] || null) as 'day' | 'month' | null, added: Number(reply[1]), usage: snapshotOf(reply) };
  }

  async readUsage(scope: UsageScope): Promise<UsageSnapshot> {
    return (await this.admit(scope, { requestLimit: null, items: null, take: false })).usage;
  }
}

function windowArgs(scope: UsageScope): string[] {
  const tag = monthWindowTag(scope.month);
  const month = scope.month;
  // A billing period's set is useless after its end; a rolling one lives as long as its window.
  const monthMs = !month ? 0 : month.kind === 'rolling' ? month.ms : Math.max(1, month.end - scope.now);
  const requestMs = Math.max(1, scope.requestDay.end - scope.now);
  return [scope.now, scope.dayMs, tag.kind, tag.start, monthMs, scope.requestDay.start, requestMs].map(String);
}

const optional = (limit: number | null): string => (limit === null ? '' : String(limit));

function snapshotOf(reply: UsageReply): UsageSnapshot {
  const time = (score: string) => (score === '' ? null : Number(score));
  return { requests: Number(reply[2]), day: Number(reply[3]), dayOldest: time(reply[4]), month: Number(reply[5]), monthOldest: time(reply[6]) };
}
