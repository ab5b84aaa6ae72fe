/** Operator commands on accounts and keys (npm run admin). Pure functions of an AccountStore. */
import type { Account, AccountStore, KeyStatus } from '../core/ports/access-store.js';
import type { OfferCatalog } from '../api/access/offers.js';
import { accessStartDate, generateApiKey, hashApiKey, keyPrefix } from '../api/access/keys.js';

export class AdminError extends Error {}

export interface CreateKeyInput {
  account: string;
  offer: string;
  createdAt?: string;
  historyDays?: number;
  name?: string;
}

export interface CreatedKey {
  account: string;
  key: string;
  offer: string;
  annonces_from: string;
}

const ACCOUNT_ID = /^[A-Za-z0-9._-]{1,64}$/;

export async function createKey(store: AccountStore, offers: OfferCatalog, input: CreateKeyInput, now = new Date()): Promise<CreatedKey> {
  if (!ACCOUNT_ID.test(input.account)) throw new AdminError('--account must match ^[A-Za-z0-9._-]{1,64}$');
  if (!offers.has(input.offer)) throw new AdminError(`--offer must be one of ${offers.ids.join(', ')}`);
  const historyDays = input.historyDays ?? 0;
  if (!Number.isInteger(historyDays) || historyDays < 0 || historyDays > 3650) throw new AdminError('--history-days must be an integer from 0 to 3650');
  const createdAt = input.createdAt ? new Date(`${input.createdAt}T00:00:00Z`) : now;
  if (Number.isNaN(createdAt.getTime()) || (input.createdAt && !/^\d{4}-\d{2}-\d{2}$/.test(input.createdAt)))
    throw new AdminError('--created-at must be YYYY-MM-DD');
  // An existing account keeps its creation date and access start date (docs/api.md: it belongs to the account).
  const account: Account = await store.ensureAccount({
    id: input.account,
    offer: input.offer,
    created_at: createdAt.toISOString(),
    history_days: historyDays,
    annonces_from: accessStartDate(createdAt, historyDays),
  });
  const key = generateApiKey();
  const existingKeys = await store.listKeys(account.id);
  await store.addKey({
    hash: hashApiKey(key),
    prefix: keyPrefix(key),
    name: input.name ?? `${account.id}-${existingKeys.length + 1}`,
    account_id: account.id,
    status: 'active',
    created_at: now.toISOString(),
  });
  return { account: account.id, key, offer: account.offer, annonces_from: account.annonces_from };
}

/** Revokes or blocks a key given in full or by its prefix. */
export async function setKeyStatus(store: AccountStore, keyOrPrefix: string, status: Exclude<KeyStatus, 'active'>): Promise<number> {
  const target = keyOrPrefix.length > 20 ? hashApiKey(keyOrPrefix) : keyOrPrefix;
  const changed = await store.setKeyStatus(target, status);
  if (changed === 0) throw new AdminError('no key matches');
  return changed;
}

export async function listAccounts(store: AccountStore): Promise<(Account & { keys: { prefix: string; name: string; status: KeyStatus }[] })[]> {
  const accounts = await store.listAccounts();
  return Promise.all(
    accounts.map(async (account) => ({
      ...account,
      keys: (await store.listKeys(account.id)).map((k) => ({ prefix: k.prefix, name: k.name, status: k.status })),
    })),
  );
}

export interface CopiedAccess {
  accounts: number;
  keys: number;
  /** Keys already in the target, whose status was set to the source's. */
  keys_updated: number;
}

/**
 * Copies every account and API key of one access store into another (the embedded file into Redis
 * when moving to several API processes): accounts keep their creation and access start dates, keys
 * their hash, prefix, name and status. Run again, it copies what is new and brings key statuses in
 * line. Quota counters are not copied: they restart in the target.
 */
export async function copyAccess(from: AccountStore, to: AccountStore): Promise<CopiedAccess> {
  const copied: CopiedAccess = { accounts: 0, keys: 0, keys_updated: 0 };
  for (const account of await from.listAccounts()) {
    await to.ensureAccount(account);
    copied.accounts++;
    for (const key of await from.listKeys(account.id)) {
      const existing = await to.findKey(key.hash);
      if (!existing) {
        await to.addKey(key);
        copied.keys++;
      } else if (existing.status !== key.status) {
        await to.setKeyStatus(key.hash, key.status);
        copied.keys_updated++;
      }
    }
  }
  return copied;
}
