/**
 * The AccessStore port (docs/architecture.md): accounts, API keys, quota counters. Adapters: SQLite (embedded,
 * its own file) and Redis (REDIS_URL). One conformance suite (test/conformance/access-store.test.ts)
 * runs against both.
 */
export interface Account {
  id: string;
  offer: string;
  /** ISO date-time of the account's creation. */
  created_at: string;
  /** Extra history before the creation date, in days (an optional extra of the offer). */
  history_days: number;
  /** Access start date `YYYY-MM-DD` (UTC): creation day minus history days. Never moves with keys. */
  annonces_from: string;
}

export type KeyStatus = 'active' | 'revoked' | 'blocked';

export interface ApiKeyRecord {
  /** SHA-256 of the key, hex. The key itself is never stored. */
  hash: string;
  /** Short non-secret prefix shown to operators (`ak_1a2b…`). */
  prefix: string;
  name: string;
  account_id: string;
  status: KeyStatus;
  created_at: string;
}

export interface AccountStore {
  getAccount(id: string): Promise<Account | null>;
  /** Creates the account, or returns the existing one unchanged except its offer. */
  ensureAccount(account: Account): Promise<Account>;
  listAccounts(): Promise<Account[]>;
  addKey(key: ApiKeyRecord): Promise<void>;
  findKey(hash: string): Promise<ApiKeyRecord | null>;
  /**
   * The key and its account in one read (every API request authenticates: one round trip to Redis
   * instead of two); account null when the key names an account that does not exist.
   */
  findKeyWithAccount(hash: string): Promise<{ key: ApiKeyRecord; account: Account | null } | null>;
  /** Finds by key hash or by prefix; returns the number of keys changed. */
  setKeyStatus(hashOrPrefix: string, status: KeyStatus): Promise<number>;
  listKeys(accountId: string): Promise<ApiKeyRecord[]>;
}

export interface AccessHealth {
  ok: boolean;
  backend: string;
  detail?: string;
}

/**
 * Quota counters (docs/api.md "Offers, quotas and headers"). The metering service computes the windows of an account; the
 * adapters only count, atomically (one Lua script on Redis, one transaction on SQLite), so that the
 * HTTP behaviour is the same on both. `now` is a parameter: tests move time without sleeping.
 */
export type MonthWindow =
  /** Subscriptions: the billing period [start, end). */
  | { kind: 'period'; start: number; end: number }
  /** Free offer: the last `ms` milliseconds. */
  | { kind: 'rolling'; ms: number };

export interface UsageScope {
  accountId: string;
  /** Epoch milliseconds. */
  now: number;
  /** Rolling window of the daily listing quota. */
  dayMs: number;
  /** null: legacy account, no monthly quota. */
  month: MonthWindow | null;
  /** Fixed window [start, end) of the daily request cap. */
  requestDay: { start: number; end: number };
}

/**
 * Identity of a monthly window, stored beside the counters: when it changes the adapter starts a new
 * window. A window only rolls forward (a later period start), so two API servers whose clocks differ
 * by a second at a period boundary cannot wipe each other's counts back and forth.
 */
export interface MonthWindowTag {
  kind: '' | 'rolling' | 'period';
  start: number;
}

export function monthWindowTag(month: MonthWindow | null): MonthWindowTag {
  if (!month) return { kind: '', start: 0 };
  return month.kind === 'period' ? { kind: 'period', start: month.start } : { kind: 'rolling', start: 0 };
}

export function shouldRoll(stored: MonthWindowTag, current: MonthWindowTag): boolean {
  return stored.kind !== current.kind || current.start > stored.start;
}

export interface UsageSnapshot {
  /** Requests taken in the request day. */
  requests: number;
  /** Unique listings counted in the daily window, and when the oldest of them was counted (null: none). */
  day: number;
  dayOldest: number | null;
  /** Unique listings counted in the monthly window (0 without one), and when the oldest was counted. */
  month: number;
  monthOldest: number | null;
}

export interface ListingLimits {
  day: number;
  month: number | null;
}

/** What refused a call: the daily request cap, the daily or the monthly listing quota. */
export type UsageRefusal = 'requests' | 'day' | 'month';

export interface Admission {
  /** Daily request cap; null takes the request whatever the count (a PTZ lookup that already succeeded). */
  requestLimit: number | null;
  /** Listing quotas checked before a listing search; null for endpoints that deliver no listing. */
  items: ListingLimits | null;
  /** false only checks: a PTZ lookup takes its token after it succeeded. */
  take: boolean;
}

export interface UsageCounters {
  /** Checks the request cap (and the listing quotas), then takes one request; nothing is taken when refused. */
  admit(scope: UsageScope, admission: Admission): Promise<{ refused: UsageRefusal | null; usage: UsageSnapshot }>;
  /**
   * Counts the listing ids not yet counted in the windows, unless a quota was already reached before
   * this call (then nothing is counted). Refusing only when the quota is already full lets the page
   * that crosses it be served whole, and bounds the overshoot to one page under any concurrency.
   */
  consumeListings(
    scope: UsageScope,
    ids: readonly string[],
    limits: ListingLimits,
  ): Promise<{ refused: Exclude<UsageRefusal, 'requests'> | null; added: number; usage: UsageSnapshot }>;
  /** The counters as they are (expired entries dropped). */
  readUsage(scope: UsageScope): Promise<UsageSnapshot>;
}

export interface AccessStore extends AccountStore, UsageCounters {
  readonly backend: string;
  health(): Promise<AccessHealth>;
  close(): Promise<void>;
}

/** Raised when the access backend cannot be reached: the API answers 503 SERVICE_UNAVAILABLE. */
export class AccessUnavailableError extends Error {
  constructor(
    readonly backend: string,
    cause?: unknown,
  ) {
    super(`${backend} is unavailable`);
    this.name = 'AccessUnavailableError';
    if (cause) (this as { cause?: unknown }).cause = cause;
  }
}
