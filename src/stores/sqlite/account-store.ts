/** Accounts and keys in the embedded access file (SQLite). */
import type Database from 'better-sqlite3';
import { StatementCache } from './statements.js';
import type { Account, AccountStore, ApiKeyRecord, KeyStatus } from '../access-store.js';

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

export class SqliteAccountStore implements AccountStore {
  /** Every API request looks up its key and account: the statements are prepared once. */
  private readonly statements: StatementCache;

  constructor(protected readonly db: Database.Database) {
    db.exec(ACCOUNTS_SCHEMA);
    this.statements = new StatementCache(db);
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
      this.sql('INSERT INTO accounts (id, offer, created_at, history_days, annonces_from) VALUES (@id, @offer, @created_at, @history_days, @annonces_from)').run(account);
      return account;
    });
    return upsert();
  }

  async listAccounts(): Promise<Account[]> {
    return this.sql('SELECT * FROM accounts ORDER BY id').all() as Account[];
  }

  async addKey(key: ApiKeyRecord): Promise<void> {
    this.sql('INSERT INTO api_keys (hash, prefix, name, account_id, status, created_at) VALUES (@hash, @prefix, @name, @account_id, @status, @created_at)').run(key);
  }

  async findKey(hash: string): Promise<ApiKeyRecord | null> {
    return (this.sql('SELECT * FROM api_keys WHERE hash = ?').get(hash) as ApiKeyRecord | undefined) ?? null;
  }

  async findKeyWithAccount(hash: string): Promise<{ key: ApiKeyRecord; account: Account | null } | null> {
    const key = await this.findKey(hash);
    return key ? { key, account: await this.getAccount(key.account_id) } : null;
  }

  async setKeyStatus(hashOrPrefix: string, status: KeyStatus): Promise<number> {
    return this.sql('UPDATE api_keys SET status = ? WHERE hash = ? OR prefix = ?').run(status, hashOrPrefix, hashOrPrefix).changes;
  }

  async listKeys(accountId: string): Promise<ApiKeyRecord[]> {
    return this.sql('SELECT * FROM api_keys WHERE account_id = ? ORDER BY created_at').all(accountId) as ApiKeyRecord[];
  }
}
