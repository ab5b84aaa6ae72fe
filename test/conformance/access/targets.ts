/**
 * The AccessStore backends the conformance suite runs on: SQLite always, Redis when REDIS_URL is
 * set. Each target opens any number of handles on the SAME data (several API servers on one Redis,
 * several connections on one SQLite file) and removes its data at the end.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { AccessStore } from '../../../src/core/ports/access-store.js';
import { SqliteAccessStore } from '../../../src/adapters/sqlite-access/access-store.js';
import { RedisAccessStore } from '../../../src/adapters/redis/access-store.js';
import type { AlertStore } from '../../../src/core/ports/alert-store.js';
import { SqliteAlertStore } from '../../../src/adapters/sqlite-access/alert-store.js';
import { RedisAlertStore } from '../../../src/adapters/redis/alert-store.js';
import { connectRedis, waitUntilReady } from '../../../src/adapters/redis/client.js';

export type TestAccessStore = AccessStore & {
  /** Counter entries kept for an account (SQLite rows; Redis keys plus set members). */
  footprint(accountId: string): Promise<number>;
};

export interface AccessTarget {
  name: string;
  /** Why the target cannot run here, or null. */
  unavailable: string | null;
  open(): Promise<TestAccessStore>;
  /** The alert store of the same backend, on the same data. */
  openAlerts(): Promise<AlertStore>;
  /** Closes every handle opened and deletes the data. */
  dispose(): Promise<void>;
}

export function sqliteTarget(): AccessTarget {
  const dir = mkdtempSync(path.join(tmpdir(), 'access-conformance-'));
  const opened: TestAccessStore[] = [];
  return {
    name: 'sqlite',
    unavailable: null,
    async open() {
      const store = SqliteAccessStore.open(path.join(dir, 'access.sqlite'));
      opened.push(store);
      return store;
    },
    async openAlerts() {
      const store = SqliteAccessStore.open(path.join(dir, 'access.sqlite'));
      opened.push(store);
      return new SqliteAlertStore(store.database);
    },
    async dispose() {
      await Promise.all(opened.splice(0).map((s) => s.close().catch(() => {})));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A Redis target under a key prefix of its own, so runs never see each other's keys. */
export function redisTarget(url = process.env.REDIS_URL): AccessTarget & { keyPrefix: string } {
  const keyPrefix = `test:access:${process.pid}:${randomBytes(4).toString('hex')}:`;
  const opened: RedisAccessStore[] = [];
  return {
    name: 'redis',
    unavailable: url ? null : 'REDIS_URL is not set (CI sets it; locally: REDIS_URL=redis://127.0.0.1:6379)',
    keyPrefix,
    async open() {
      const client = connectRedis(url!);
      if (!(await waitUntilReady(client, 3000))) throw new Error(`Redis at ${url} is not reachable`);
      const store = new RedisAccessStore(client, keyPrefix);
      opened.push(store);
      return store;
    },
    async openAlerts() {
      const client = connectRedis(url!);
      if (!(await waitUntilReady(client, 3000))) throw new Error(`Redis at ${url} is not reachable`);
      opened.push(new RedisAccessStore(client, keyPrefix));
      return new RedisAlertStore(client, keyPrefix);
    },
    async dispose() {
      const cleaner = connectRedis(url!);
      await waitUntilReady(cleaner, 3000);
      await deleteKeys(cleaner, keyPrefix);
      cleaner.disconnect();
      await Promise.all(opened.splice(0).map((s) => s.close().catch(() => {})));
    },
  };
}

export async function deleteKeys(client: ReturnType<typeof connectRedis>, keyPrefix: string): Promise<number> {
  let cursor = '0';
  let deleted = 0;
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', `${keyPrefix}*`, 'COUNT', 500);
    cursor = next;
    if (keys.length) deleted += await client.del(...keys);
  } while (cursor !== '0');
  return deleted;
}

export const accessTargets = (): AccessTarget[] => [sqliteTarget(), redisTarget()];
