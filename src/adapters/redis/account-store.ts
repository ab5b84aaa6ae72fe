/**
 * Accounts and keys in Redis hashes (no TTL: they live until an operator changes them).
 *   <prefix>account:<id>           HASH Account          <prefix>accounts            SET of account ids
 *   <prefix>key:<sha256>           HASH ApiKeyRecord     <prefix>keys-of:<account>   SET of key hashes
 *   <prefix>key-prefix:<prefix>    SET of key hashes (an operator revokes a key by its shown prefix)
 */
import type { Redis, Result } from 'ioredis';
import type { Account, AccountStore, ApiKeyRecord, KeyStatus } from '../../core/ports/access-store.js';
import { guarded } from './client.js';

/** Creates the account or changes only its offer: creation and access start dates belong to the account. */
const ENSURE_ACCOUNT = `
if redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('HSET', KEYS[1], 'offer', ARGV[2])
else
  redis.call('HSET', KEYS[1], 'id', ARGV[1], 'offer', ARGV[2], 'created_at', ARGV[3], 'history_days', ARGV[4], 'annonces_from', ARGV[5])
  redis.call('SADD', KEYS[2], ARGV[1])
end
return redis.call('HGETALL', KEYS[1])
`;

/** The key's hash and its account's hash, in one round trip (the account key is built from the key's account_id). */
const KEY_WITH_ACCOUNT = `
local key = redis.call('HGETALL', KEYS[1])
if #key == 0 then return {key, {}} end
for i = 1, #key, 2 do
  if key[i] == 'account_id' then return {key, redis.call('HGETALL', ARGV[1] .. key[i + 1])} end
end
return {key, {}}
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    annoncesEnsureAccount(account: string, accounts: string, ...args: string[]): Result<string[], Context>;
    annoncesKeyWithAccount(key: string, accountPrefix: string): Result<[string[], string[]], Context>;
  }
}

export class RedisAccountStore implements AccountStore {
  constructor(
    protected readonly client: Redis,
    protected readonly keyPrefix: string,
  ) {
    client.defineCommand('annoncesEnsureAccount', { numberOfKeys: 2, lua: ENSURE_ACCOUNT });
    client.defineCommand('annoncesKeyWithAccount', { numberOfKeys: 1, lua: KEY_WITH_ACCOUNT });
  }

  async getAccount(id: string): Promise<Account | null> {
    const fields = await guarded(() => this.client.hgetall(this.key('account', id)));
    return toAccount(fields);
  }

  async ensureAccount(account: Account): Promise<Account> {
    const flat = await guarded(() =>
      this.client.annoncesEnsureAccount(
        this.key('account', account.id),
        this.key('accounts'),
        account.id,
        account.offer,
        account.created_at,
        String(account.history_days),
        account.annonces_from,
      ),
    );
    return toAccount(pairs(flat))!;
  }

  async listAccounts(): Promise<Account[]> {
    const ids = await guarded(() => this.client.smembers(this.key('accounts')));
    const accounts = await Promise.all(ids.sort().map((id) => this.getAccount(id)));
    return accounts.filter((a): a is Account => a !== null);
  }

  async addKey(key: ApiKeyRecord): Promise<void> {
    const created = await guarded(() => this.client.hsetnx(this.key('key', key.hash), 'hash', key.hash));
    // Same contract as the SQLite primary key: a hash is registered once.
    if (created === 0) throw new Error('an API key with this hash already exists');
    await guarded(() =>
      this.client
        .multi()
        .hset(this.key('key', key.hash), { ...key })
        .sadd(this.key('keys-of', key.account_id), key.hash)
        .sadd(this.key('key-prefix', key.prefix), key.hash)
        .exec(),
    );
  }

  async findKey(hash: string): Promise<ApiKeyRecord | null> {
    const fields = await guarded(() => this.client.hgetall(this.key('key', hash)));
    return toKey(fields);
  }

  async findKeyWithAccount(hash: string): Promise<{ key: ApiKeyRecord; account: Account | null } | null> {
    // The account's Redis key is read inside the script from the key's hash: a key the script
    // builds, which a Redis Cluster would refuse; this store runs on one Redis (docs/architecture.md).
    const [keyFields, accountFields] = await guarded(() => this.client.annoncesKeyWithAccount(this.key('key', hash), `${this.keyPrefix}account:`));
    const key = toKey(pairs(keyFields));
    return key ? { key, account: toAccount(pairs(accountFields)) } : null;
  }

  async setKeyStatus(hashOrPrefix: string, status: KeyStatus): Promise<number> {
    const [byHash, byPrefix] = await guarded(() =>
      Promise.all([this.client.exists(this.key('key', hashOrPrefix)), this.client.smembers(this.key('key-prefix', hashOrPrefix))]),
    );
    const hashes = new Set(byPrefix);
    if (byHash) hashes.add(hashOrPrefix);
    if (hashes.size === 0) return 0;
    const multi = this.client.multi();
    for (const hash of hashes) multi.hset(this.key('key', hash), 'status', status);
    await guarded(() => multi.exec());
    return hashes.size;
  }

  async listKeys(accountId: string): Promise<ApiKeyRecord[]> {
    const hashes = await guarded(() => this.client.smembers(this.key('keys-of', accountId)));
    const keys = (await Promise.all(hashes.map((h) => this.findKey(h)))).filter((k): k is ApiKeyRecord => k !== null);
    return keys.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.hash.localeCompare(b.hash));
  }

  protected key(kind: string, id = ''): string {
    return id ? `${this.keyPrefix}${kind}:${id}` : `${this.keyPrefix}${kind}`;
  }
}

/** A flat HGETALL reply of a script ([field, value, ...]) as an object. */
function pairs(flat: string[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (let i = 0; i < flat.length; i += 2) fields[flat[i]] = flat[i + 1];
  return fields;
}

function toAccount(fields: Record<string, string>): Account | null {
  if (!fields.id) return null;
  return {
    id: fields.id,
    offer: fields.offer,
    created_at: fields.created_at,
    history_days: Number(fields.history_days),
    annonces_from: fields.annonces_from,
  };
}

function toKey(fields: Record<string, string>): ApiKeyRecord | null {
  if (!fields.hash || !fields.account_id) return null;
  return {
    hash: fields.hash,
    prefix: fields.prefix,
    name: fields.name,
    account_id: fields.account_id,
    status: fields.status as KeyStatus,
    created_at: fields.created_at,
  };
}
