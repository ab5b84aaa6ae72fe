/**
 * The AccessStore port (DESIGN.md): accounts, API keys, quota counters. Adapters: SQLite (embedded,
 * its own file) and Redis (REDIS_URL). One conformance suite (test/conformance/access-store.*) runs
 * against both.
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
  /** Finds by key hash or by prefix; returns the number of keys changed. */
  setKeyStatus(hashOrPrefix: string, status: KeyStatus): Promise<number>;
  listKeys(accountId: string): Promise<ApiKeyRecord[]>;
}

export interface AccessHealth {
  ok: boolean;
  backend: string;
  detail?: string;
}

export interface AccessStore extends AccountStore {
  readonly backend: string;
  health(): Promise<AccessHealth>;
  close(): Promise<void>;
}

/** Raised when the access backend cannot be reached: the API answers 503 SERVICE_UNAVAILABLE. */
export class AccessUnavailableError extends Error {
  constructor(readonly backend: string, cause?: unknown) {
    super(`${backend} is unavailable`);
    this.name = 'AccessUnavailableError';
    if (cause) (this as { cause?: unknown }).cause = cause;
  }
}
