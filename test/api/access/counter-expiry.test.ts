/**
 * Counters expire on their own, beyond what the conformance suite can show with an injected clock:
 * Redis keys carry TTLs no longer than their window; the SQLite file drops idle accounts' rows.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SqliteAccessStore } from '../../../src/adapters/sqlite-access/access-store.js';
import { redisTarget } from '../../conformance/access/targets.js';
import { DAY, T0, ids, newAccountId, scopeAt } from '../../conformance/access/scopes.js';
import { connectRedis, waitUntilReady } from '../../../src/adapters/redis/client.js';

const BIG = { day: 1e6, month: 1e6 };

describe('SQLite counters of idle accounts', function () {
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'access-expiry-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('are dropped once every window of the account has passed', async function () {
    const store = SqliteAccessStore.open(path.join(dir, 'access.sqlite'));
    const idle = newAccountId('idle');
    const active = newAccountId('active');
    await store.consumeListings(scopeAt(idle, T0), ids('i', 40), BIG);
    await store.consumeListings(scopeAt(active, T0 + 31 * DAY), ['a'], BIG);
    expect(await store.footprint(idle)).to.equal(80);
    // Past the longest window (a 31-day period plus a margin), any call sweeps the idle account.
    await store.consumeListings(scopeAt(active, T0 + 33 * DAY), ['b'], BIG);
    expect(await store.footprint(idle)).to.equal(0);
    expect(await store.footprint(active)).to.be.greaterThan(0);
    expect(await store.readUsage(scopeAt(idle, T0 + 33 * DAY))).to.deep.include({ day: 0, month: 0 });
    await store.close();
  });
});

describe('Redis counter keys', function () {
  const target = redisTarget();
  after(() => target.dispose());

  it('all carry a TTL no longer than their window', async function () {
    if (target.unavailable) {
      console.warn(`\n  !!! SKIPPING Redis key expiry test: ${target.unavailable}\n`);
      this.skip();
    }
    const store = await target.open();
    const rolling = newAccountId('ttl-rolling');
    const period = newAccountId('ttl-period');
    await store.consumeListings(scopeAt(rolling, T0, 'rolling'), ids('r', 5), BIG);
    await store.admit(scopeAt(period, T0), { requestLimit: 10, items: null, take: true });
    await store.consumeListings(scopeAt(period, T0), ids('p', 5), BIG);
    const client = connectRedis(process.env.REDIS_URL!);
    await waitUntilReady(client, 2000);
    const ttl = async (account: string, set: string) => client.pttl(`${target.keyPrefix}usage:{${account}}:${set}`);
    expect(await ttl(rolling, 'day')).to.be.within(1, DAY);
    expect(await ttl(rolling, 'month')).to.be.within(DAY, 30 * DAY);
    expect(await ttl(rolling, 'meta')).to.be.within(DAY, 30 * DAY);
    // T0 is 2026-03-10T12:00Z: the March period ends in 21.5 days.
    expect(await ttl(period, 'month')).to.be.within(21 * DAY, 21.5 * DAY);
    expect(await ttl(period, 'meta')).to.be.within(21 * DAY, 21.5 * DAY);
    client.disconnect();
  });
});
