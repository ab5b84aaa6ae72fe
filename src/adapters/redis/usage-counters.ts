/**
 * Quota counters on Redis: one Lua script per call (src/adapters/redis/usage-scripts.ts).
 *
 * The counters expire with their windows, so they are kept apart from the account; but losing them
 * (deleted, evicted) silently gave an account refused for its monthly quota a fresh one. So a
 * monthly refusal is also written into the account's own hash (fields MONTH_FULL_FIELDS: the window,
 * until when, how many), which lives as long as the account, and an admission honours it when the
 * counters say less: the account stays refused until then, with the counts it had.
 */
import type { Redis, Result } from 'ioredis';
import {
  AccessUnavailableError,
  monthWindowTag,
  type Admission,
  type ListingLimits,
  type UsageCounters,
  type UsageRefusal,
  type UsageScope,
  type UsageSnapshot,
} from '../../core/ports/access-store.js';
import { guarded, REDIS_BACKEND } from './client.js';
import { ADMIT_SCRIPT, CONSUME_SCRIPT, type UsageReply } from './usage-scripts.js';

declare module 'ioredis' {
  interface RedisCommander<Context> {
    annoncesUsageAdmit(day: string, month: string, meta: string, ...args: string[]): Result<UsageReply, Context>;
    annoncesUsageConsume(day: string, month: string, meta: string, ...args: string[]): Result<UsageReply, Context>;
    annoncesNoteMonthFull(account: string, ...fieldsAndValues: string[]): Result<number, Context>;
  }
}

/** Fields of the account hash holding its last monthly refusal: window tag, until (ms), listings counted, oldest (ms). */
const MONTH_FULL_FIELDS = ['month_full_tag', 'month_full_until', 'month_full_used', 'month_full_oldest'] as const;

export class RedisUsageCounters implements UsageCounters {
  constructor(
    private readonly client: Redis,
    private readonly keyPrefix: string,
  ) {
    // defineCommand sends EVALSHA and falls back to EVAL after a Redis restart emptied the script cache.
    client.defineCommand('annoncesUsageAdmit', { numberOfKeys: 3, lua: ADMIT_SCRIPT });
    client.defineCommand('annoncesUsageConsume', { numberOfKeys: 3, lua: CONSUME_SCRIPT });
    // Into an existing account only: counters of an id without an account hash create none.
    client.defineCommand('annoncesNoteMonthFull', {
      numberOfKeys: 1,
      lua: "if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('HSET', KEYS[1], unpack(ARGV)) end return 0",
    });
  }

  /** The keys of one account; the `{account}` hash tag keeps them in one slot on a Redis Cluster. */
  keysOf(accountId: string): [string, string, string] {
    const base = `${this.keyPrefix}usage:{${accountId}}`;
    return [`${base}:day`, `${base}:month`, `${base}:meta`];
  }

  async admit(scope: UsageScope, admission: Admission): Promise<{ refused: UsageRefusal | null; usage: UsageSnapshot }> {
    const items = admission.items;
    const args = [
      ...windowArgs(scope),
      optional(admission.requestLimit),
      items ? String(items.day) : '',
      optional(items?.month ?? null),
      admission.take ? '1' : '0',
    ];
    if (!items || items.month === null || !scope.month) {
      const reply = await guarded(() => this.client.annoncesUsageAdmit(...this.keysOf(scope.accountId), ...args));
      return this.refusalNoted(scope, (reply[0] || null) as UsageRefusal | null, snapshotOf(reply));
    }
    // The monthly quota is checked: the account's last monthly refusal comes in the same round trip.
    const [[scriptError, reply], [fieldsError, fields]] = (await guarded(
      async () =>
        (await this.client
          .pipeline()
          .annoncesUsageAdmit(...this.keysOf(scope.accountId), ...args)
          .hmget(this.accountKey(scope.accountId), ...MONTH_FULL_FIELDS)
          .exec())!,
    )) as [[Error | null, UsageReply], [Error | null, (string | null)[]]];
    if (scriptError || fieldsError) throw new AccessUnavailableError(REDIS_BACKEND, scriptError ?? fieldsError);
    const usage = snapshotOf(reply);
    const [tag, until, used, oldest] = fields;
    const current = monthWindowTag(scope.month);
    // Counters that say less than the refusal noted in this window were lost: refused still, with the noted counts.
    if (tag === `${current.kind}:${current.start}` && Number(until) > scope.now && usage.month < Number(used) && Number(used) >= items.month) {
      return { refused: 'month', usage: { ...usage, month: Number(used), monthOldest: usage.monthOldest ?? (oldest ? Number(oldest) : null) } };
    }
    return this.refusalNoted(scope, (reply[0] || null) as UsageRefusal | null, usage);
  }

  async consumeListings(scope: UsageScope, ids: readonly string[], limits: ListingLimits) {
    const reply = await guarded(() =>
      this.client.annoncesUsageConsume(...this.keysOf(scope.accountId), ...windowArgs(scope), String(limits.day), optional(limits.month), ...ids),
    );
    const { refused, usage } = await this.refusalNoted(scope, (reply[0] || null) as 'day' | 'month' | null, snapshotOf(reply));
    return { refused: refused as 'day' | 'month' | null, added: Number(reply[1]), usage };
  }

  /** A monthly refusal is written into the account's hash (see the class comment) before it is returned. */
  private async refusalNoted(
    scope: UsageScope,
    refused: UsageRefusal | null,
    usage: UsageSnapshot,
  ): Promise<{ refused: UsageRefusal | null; usage: UsageSnapshot }> {
    if (refused !== 'month' || !scope.month) return { refused, usage };
    const tag = monthWindowTag(scope.month);
    // A period resumes at its end; a rolling window when its oldest listing leaves it.
    const until = scope.month.kind === 'period' ? scope.month.end : (usage.monthOldest ?? scope.now) + scope.month.ms;
    await guarded(() =>
      this.client.annoncesNoteMonthFull(
        this.accountKey(scope.accountId),
        MONTH_FULL_FIELDS[0],
        `${tag.kind}:${tag.start}`,
        MONTH_FULL_FIELDS[1],
        String(until),
        MONTH_FULL_FIELDS[2],
        String(usage.month),
        MONTH_FULL_FIELDS[3],
        String(usage.monthOldest ?? ''),
      ),
    );
    return { refused, usage };
  }

  private accountKey(accountId: string): string {
    return `${this.keyPrefix}account:${accountId}`;
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
