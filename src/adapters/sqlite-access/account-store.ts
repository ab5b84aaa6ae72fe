/** Accounts and keys in the embedded access file (SQLite). */
import type Database from 'better-sqlite3';
import { StatementCache } from '../sqlite-shared/statements.js';
import type { Account, AccountStore, ApiKeyRecord, KeyStatus } from '../../core/ports/access-store.js';

export const ACCOUNTS_SCHEMA = `
CREATE TABLE IF NOT EXISTS accounts (
  id TEXT PRIMARY KEY, offer TEXT NOT NULL, created_at TEXT NOT NULL, history_days INTEGER NOT NULL, annonces_from TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS api_keys (
  hash TEXT PRIMARY KEY, prefix TEXT NOT NULL, name TEXT NOT NULL, account_id TEXT NOT NULL REFERENCES accounts(id),
  status TEXT NOT NULL, created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS ix_keys_prefix ON api_keys(prefix);
CREATE INDEX IF NOT EXISTS ix_keys_account ON api_keys(account_id);
`;

/** Keys held found at most, with their accounts: past it the memo starts again (misses are never held). */
const FOUND_KEYS_LIMIT = 10_000;

type KeyWithAccount = { key: ApiKeyRecord; account: Account | null };

export class SqliteAccountStore implements AccountStore {
  /** Every API request looks up its key and account: the statements are prepared once. */
  private readonly statements: StatementCache;
  /**
   * Keys found, with their account, kept while nobody changed the file: every API request looked up
   * its key and its account in SQLite (10 % of the server's busy time in a profile of /ptz/zone and
   * /annonces at 1M). `PRAGMA data_version` changes when another connection (the admin commands)
   * commits; this connection's own writes of keys and accounts drop the memo themselves.
   */
  private readonly foundKeys = new Map<string, KeyWithAccount>();
  private foundKeysVersion: unknown = null;
  private readonly dataVersion: Database.Statement;

  constructor(protected readonly db: Database.Database) {
    db.exec(ACCOUNTS_SCHEMA);
    this.statements = new StatementCache(db);
    this.dataVersion = db.prepare('PRAGMA data_version').pluck();
  }

  private sql(text: string): Database.Statement {
    return this.statements.get(text);
  }

  async getAccount(id: string): Promise<Account | null> {
    return (this.sql('SELECT * FROM accounts WHERE id = ?').get(id) as Account | undefined) ?? null;
  }

  async ensureAccount(account: Account): Promise<Account> {
    const upsert = this.db.transaction(() => {
      const existing = this.sql('SELECT * FROM accounts WHERE id = ?').get(account.id) as Account | undefined;
      if (existing) {
        this.sql('UPDATE accounts SET offer = ? WHERE id = ?').run(account.offer, account.id);
        return { ...existing, offer: account.offer };
      }
      this.sql(
        'INSERT INTO accounts (id, offer, created_at, history_days, annonces_from) VALUES (@id, @offer, @created_at, @history_days, @annonces_from)',
      ).run(account);
      return account;
    });
    this.forgetFoundKeys();
    return upsert();
  }

  async listAccounts(): Promise<Account[]> {
    return this.sql('SELECT * FROM accounts ORDER BY id').all() as Account[];
  }

  async addKey(key: ApiKeyRecord): Promise<void> {
    this.forgetFoundKeys();
    this.sql('INSERT INTO api_keys (hash, prefix, name, account_id, status, created_at) VALUES (@hash, @prefix, @name, @account_id, @status, @created_at)').run(
      key,
    );
  }

  async findKey(hash: string): Promise<ApiKeyRecord | null> {
    return (this.sql('SELECT * FROM api_keys WHERE hash = ?').get(hash) as ApiKeyRecord | undefined) ?? null;
  }

  async findKeyWithAccount(hash: string): Promise<KeyWithAccount | null> {
    const version = this.dataVersion.get();
    if (version !== this.foundKeysVersion) this.forgetFoundKeys(version);
    const memo = this.foundKeys.get(hash);
    if (memo) return memo;
    const key = await this.findKey(hash);
    if (!key) return null;
    const account = await this.getAccount(key.account_id);
    // Frozen: every request of the key gets these same objects.
    const found = Object.freeze({ key: Object.freeze(key), account: account && Object.freeze(account) });
    if (this.foundKeys.size >= FOUND_KEYS_LIMIT) this.foundKeys.clear();
    this.foundKeys.set(hash, found);
    return found;
  }

  /** After a write of keys or accounts, of this connection (`version` unknown) or another one. */
  private forgetFoundKeys(version: unknown = null): void {
    this.foundKeys.clear();
    this.foundKeysVersion = version;
  }

  async setKeyStatus(hashOrPrefix: string, status: KeyStatus): Promise<number> {
    this.forgetFoundKeys();
    return this.sql('UPDATE api_keys SET status = ? WHERE hash = ? OR prefix = ?').run(status, hashOrPrefix, hashOrPrefix).changes;
  }

  async listKeys(accountId: string): Promise<ApiKeyRecord[]> {
    return this.sql('SELECT * FROM api_keys WHERE account_id = ? ORDER BY created_at').all(accountId) as ApiKeyRecord[];
  }
}
