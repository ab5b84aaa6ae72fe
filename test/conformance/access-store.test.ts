/**
 * ONE conformance suite for every AccessStore adapter: SQLite always, Redis when REDIS_URL is set
 * (skipped loudly otherwise). Time is injected: windows expire without sleeping.
 */
import { expect } from 'chai';
import type { ListingLimits } from '../../src/core/ports/access-store.js';
import { accessTargets, type TestAccessStore } from './access/targets.js';
import { CREATED_AT, DAY, HOUR, T0, ids, newAccountId, scopeAt } from './access/scopes.js';

const BIG: ListingLimits = { day: 1_000_000, month: 1_000_000 };

for (const target of accessTargets()) {
  describe(`AccessStore conformance: ${target.name}`, function () {
    let store: TestAccessStore;

    before(async function () {
      if (target.unavailable) {
        console.warn(`\n  !!! SKIPPING the ${target.name} AccessStore conformance suite: ${target.unavailable}\n`);
        this.skip();
      }
      store = await target.open();
    });
    after(() => target.dispose());

    describe('accounts and keys', function () {
      it('creates an account once, then changes only its offer', async function () {
        const id = newAccountId('acct');
        const created = await store.ensureAccount({ id, offer: 'secteur', created_at: CREATED_AT, history_days: 3, annonces_from: '2025-12-29' });
        expect(created).to.deep.equal({ id, offer: 'secteur', created_at: CREATED_AT, history_days: 3, annonces_from: '2025-12-29' });
        const again = await store.ensureAccount({ id, offer: 'ville', created_at: '2026-05-05T00:00:00.000Z', history_days: 0, annonces_from: '2026-05-05' });
        expect(again).to.deep.equal({ ...created, offer: 'ville' });
        expect(await store.getAccount(id)).to.deep.equal(again);
        expect(await store.getAccount(`${id}-unknown`)).to.equal(null);
        expect((await store.listAccounts()).map((a) => a.id)).to.include(id);
      });

      it('finds keys by hash, lists them by account, and revokes by hash or by prefix', async function () {
        const account = newAccountId('keys');
        await store.ensureAccount({ id: account, offer: 'ville', created_at: CREATED_AT, history_days: 0, annonces_from: '2026-01-01' });
        const key = (n: number) => ({
          hash: `${account}-h${n}`,
          prefix: `ak_${account}-${n}`,
          name: `k${n}`,
          account_id: account,
          status: 'active' as const,
          created_at: `2026-01-0${n}T00:00:00.000Z`,
        });
        await store.addKey(key(2));
        await store.addKey(key(1));
        expect(await store.findKey(`${account}-h1`)).to.deep.equal(key(1));
        expect(await store.findKey('nope')).to.equal(null);
        const account1 = await store.getAccount(account);
        expect(await store.findKeyWithAccount(`${account}-h1`)).to.deep.equal({ key: key(1), account: account1 });
        expect(await store.findKeyWithAccount('nope')).to.equal(null);
        expect((await store.listKeys(account)).map((k) => k.name)).to.deep.equal(['k1', 'k2']);
        expect(await store.setKeyStatus(`${account}-h1`, 'revoked')).to.equal(1);
        expect(await store.setKeyStatus(`ak_${account}-2`, 'blocked')).to.equal(1);
        expect(await store.setKeyStatus('no-such-key', 'revoked')).to.equal(0);
        expect((await store.listKeys(account)).map((k) => k.status)).to.deep.equal(['revoked', 'blocked']);
      });
    });

    describe('listing counters', function () {
      it('counts unique ids only, within one call and across calls', async function () {
        const account = newAccountId('unique');
        const first = await store.consumeListings(scopeAt(account, T0), ['a', 'b', 'a', 'c'], BIG);
        expect(first).to.deep.include({ refused: null, added: 3 });
        expect(first.usage).to.deep.include({ day: 3, month: 3, dayOldest: T0, monthOldest: T0 });
      });

      it('costs nothing to deliver a listing again in the window, daily quota included', async function () {
        const account = newAccountId('again');
        await store.consumeListings(scopeAt(account, T0), ['a', 'b'], BIG);
        const again = await store.consumeListings(scopeAt(account, T0 + 2 * DAY), ['b', 'c'], BIG);
        expect(again.added).to.equal(1);
        // b was discovered 2 days ago: it stays out of today's count.
        expect(again.usage).to.deep.include({ day: 1, month: 3 });
      });

      it('rolls the daily window over 24 hours', async function () {
        const account = newAccountId('day');
        await store.consumeListings(scopeAt(account, T0), ['a', 'b'], BIG);
        await store.consumeListings(scopeAt(account, T0 + 23 * HOUR), ['c'], BIG);
        expect((await store.readUsage(scopeAt(account, T0 + 24 * HOUR - 1))).day).to.equal(3);
        const later = await store.readUsage(scopeAt(account, T0 + 24 * HOUR));
        expect(later).to.deep.include({ day: 1, dayOldest: T0 + 23 * HOUR, month: 3 });
      });

      it('rolls the free offer over 30 days: the oldest listing frees first', async function () {
        const account = newAccountId('rolling');
        await store.consumeListings(scopeAt(account, T0, 'rolling'), ids('x', 4), BIG);
        await store.consumeListings(scopeAt(account, T0 + 10 * DAY, 'rolling'), ids('y', 2), BIG);
        expect((await store.readUsage(scopeAt(account, T0 + 30 * DAY - 1, 'rolling'))).month).to.equal(6);
        const freed = await store.readUsage(scopeAt(account, T0 + 30 * DAY, 'rolling'));
        expect(freed).to.deep.include({ month: 2, monthOldest: T0 + 10 * DAY });
        // A listing that left the window is a discovery again.
        expect((await store.consumeListings(scopeAt(account, T0 + 30 * DAY, 'rolling'), ['x:0'], BIG)).added).to.equal(1);
      });

      it('starts a new count with each billing period', async function () {
        const account = newAccountId('period');
        const endOfMarch = Date.parse('2026-04-01T00:00:00Z') - HOUR;
        await store.consumeListings(scopeAt(account, endOfMarch), ['a', 'b'], BIG);
        const april = await store.consumeListings(scopeAt(account, endOfMarch + 2 * HOUR), ['a', 'c'], BIG);
        // a counts again in the new period, but not twice in the same 24 hours.
        expect(april).to.deep.include({ added: 2 });
        expect(april.usage).to.deep.include({ month: 2, day: 3 });
      });

      it('keeps legacy accounts on the daily window only', async function () {
        const account = newAccountId('legacy');
        const result = await store.consumeListings(scopeAt(account, T0, 'legacy'), ['a', 'b'], { day: 10, month: null });
        expect(result.usage).to.deep.include({ day: 2, month: 0, monthOldest: null });
        expect((await store.consumeListings(scopeAt(account, T0 + HOUR, 'legacy'), ['b'], { day: 10, month: null })).added).to.equal(0);
      });

      it('serves the page that crosses the monthly limit, then counts nothing more', async function () {
        const account = newAccountId('limit');
        const limits = { day: 1000, month: 5 };
        expect((await store.consumeListings(scopeAt(account, T0), ids('p1', 4), limits)).refused).to.equal(null);
        const crossing = await store.consumeListings(scopeAt(account, T0 + 1), ids('p2', 3), limits);
        expect(crossing).to.deep.include({ refused: null, added: 3 });
        const refused = await store.consumeListings(scopeAt(account, T0 + 2), ['p1:0', 'new'], limits);
        expect(refused).to.deep.include({ refused: 'month', added: 0 });
        expect(refused.usage.month).to.equal(7);
      });

      it('refuses on the daily quota when it is full', async function () {
        const account = newAccountId('daily');
        await store.consumeListings(scopeAt(account, T0), ids('d', 3), { day: 3, month: 100 });
        const refused = await store.consumeListings(scopeAt(account, T0 + HOUR), ['e'], { day: 3, month: 100 });
        expect(refused).to.deep.include({ refused: 'day', added: 0 });
        expect((await store.consumeListings(scopeAt(account, T0 + DAY), ['e'], { day: 3, month: 100 })).refused).to.equal(null);
      });
    });

    describe('admission and the daily request cap', function () {
      it('takes one token per admitted request and refuses at the cap without counting', async function () {
        const account = newAccountId('requests');
        const admit = (now: number) => store.admit(scopeAt(account, now), { requestLimit: 2, items: null, take: true });
        expect((await admit(T0)).refused).to.equal(null);
        expect((await admit(T0 + 1)).usage.requests).to.equal(2);
        const third = await admit(T0 + 2);
        expect(third.refused).to.equal('requests');
        expect(third.usage.requests).to.equal(2);
        // The cap counts per UTC day.
        const nextDay = Date.parse('2026-03-11T00:00:00Z');
        expect(await admit(nextDay)).to.deep.include({ refused: null });
        expect((await store.readUsage(scopeAt(account, nextDay))).requests).to.equal(1);
      });

      it('refuses a listing request once a quota is full, before taking its token', async function () {
        const account = newAccountId('admit');
        await store.consumeListings(scopeAt(account, T0), ids('m', 5), { day: 100, month: 5 });
        const items = { day: 100, month: 5 };
        expect((await store.admit(scopeAt(account, T0 + 1), { requestLimit: 10, items, take: true })).refused).to.equal('month');
        expect((await store.admit(scopeAt(account, T0 + 1), { requestLimit: 10, items: { day: 5, month: null }, take: true })).refused).to.equal('day');
        // An endpoint without listings is not refused by the quotas.
        const free = await store.admit(scopeAt(account, T0 + 1), { requestLimit: 10, items: null, take: true });
        expect(free).to.deep.include({ refused: null });
        expect(free.usage.requests).to.equal(1);
      });

      it('checks without taking, and takes without limit when asked (PTZ after success)', async function () {
        const account = newAccountId('ptz');
        expect((await store.admit(scopeAt(account, T0), { requestLimit: 1, items: null, take: false })).usage.requests).to.equal(0);
        await store.admit(scopeAt(account, T0), { requestLimit: 1, items: null, take: true });
        const forced = await store.admit(scopeAt(account, T0), { requestLimit: null, items: null, take: true });
        expect(forced).to.deep.include({ refused: null });
        expect(forced.usage.requests).to.equal(2);
      });

      it('a check that takes nothing sees the cap, the next request day and expired listings like a taking call', async function () {
        const account = newAccountId('check');
        const check = (now: number) => store.admit(scopeAt(account, now), { requestLimit: 2, items: null, take: false });
        await store.consumeListings(scopeAt(account, T0), ids('c', 3), { day: 100, month: 100 });
        await store.admit(scopeAt(account, T0 + 1), { requestLimit: 2, items: null, take: true });
        expect(await check(T0 + 2)).to.deep.include({ refused: null });
        await store.admit(scopeAt(account, T0 + 3), { requestLimit: 2, items: null, take: true });
        const atCap = await check(T0 + 4);
        expect(atCap.refused).to.equal('requests');
        expect(atCap.usage).to.deep.include({ requests: 2, day: 3, month: 3 });
        // Checking took nothing: a forced take counts the third request only.
        expect((await store.admit(scopeAt(account, T0 + 5), { requestLimit: null, items: null, take: true })).usage.requests).to.equal(3);
        // A day later the daily listings have expired and the request cap starts again.
        const later = await check(T0 + DAY + HOUR);
        expect(later.refused).to.equal(null);
        expect(later.usage).to.deep.include({ requests: 0, day: 0, dayOldest: null, month: 3 });
      });
    });

    describe('bounded storage', function () {
      it('keeps a bounded number of entries per account once the windows pass', async function () {
        const account = newAccountId('bounded');
        for (let day = 0; day < 40; day++) {
          await store.consumeListings(scopeAt(account, T0 + day * DAY, 'rolling'), ids(`day${day}`, 50), BIG);
        }
        // At most the rolling 30 days of discoveries plus the last day's (plus 3 keys on Redis).
        expect(await store.footprint(account)).to.be.at.most(30 * 50 + 50 + 3);
        const quiet = await store.readUsage(scopeAt(account, T0 + 80 * DAY, 'rolling'));
        expect(quiet).to.deep.include({ day: 0, month: 0 });
        expect(await store.footprint(account)).to.be.at.most(3);
      });

      it('drops the sets of past billing periods', async function () {
        const account = newAccountId('periods');
        for (let month = 0; month < 6; month++) {
          await store.consumeListings(scopeAt(account, Date.UTC(2026, month, 15)), ids(`m${month}`, 30), BIG);
        }
        // Only June's 30 listings, in the month and day sets (plus 3 keys on Redis).
        expect(await store.footprint(account)).to.be.at.most(2 * 30 + 3);
      });
    });

    describe('concurrency', function () {
      let handles: TestAccessStore[];
      before(async function () {
        handles = [store, ...(await Promise.all([target.open(), target.open(), target.open()]))];
      });

      it('200 concurrent deliveries never count a listing twice and never lose one', async function () {
        const account = newAccountId('race');
        const shared = ['shared:1', 'shared:2'];
        const results = await Promise.all(
          Array.from({ length: 200 }, (_, i) => handles[i % handles.length].consumeListings(scopeAt(account, T0 + i), [...ids(`r${i}`, 5), ...shared], BIG)),
        );
        const usage = await store.readUsage(scopeAt(account, T0 + 1000));
        expect(usage.month).to.equal(200 * 5 + 2);
        expect(usage.day).to.equal(200 * 5 + 2);
        expect(results.reduce((sum, r) => sum + r.added, 0)).to.equal(200 * 5 + 2);
      });

      it('200 concurrent deliveries overshoot the monthly limit by less than one page', async function () {
        const account = newAccountId('overshoot');
        const limits = { day: 1_000_000, month: 100 };
        const page = 7;
        const results = await Promise.all(
          Array.from({ length: 200 }, (_, i) => handles[i % handles.length].consumeListings(scopeAt(account, T0 + i), ids(`o${i}`, page), limits)),
        );
        const served = results.filter((r) => r.refused === null);
        const usage = await store.readUsage(scopeAt(account, T0 + 1000));
        expect(usage.month).to.equal(served.length * page);
        expect(usage.month)
          .to.be.at.least(100)
          .and.below(100 + page);
        expect(results.filter((r) => r.refused === 'month').every((r) => r.added === 0)).to.equal(true);
      });

      it('200 concurrent admissions take exactly the daily request cap', async function () {
        const account = newAccountId('cap');
        const results = await Promise.all(
          Array.from({ length: 200 }, (_, i) => handles[i % handles.length].admit(scopeAt(account, T0), { requestLimit: 150, items: null, take: true })),
        );
        expect(results.filter((r) => r.refused === null)).to.have.length(150);
        expect((await store.readUsage(scopeAt(account, T0))).requests).to.equal(150);
      });
    });

    describe('durability', function () {
      it('keeps the counters when the store is closed and opened again', async function () {
        const account = newAccountId('durable');
        const writer = await target.open();
        await writer.consumeListings(scopeAt(account, T0), ids('k', 12), BIG);
        await writer.admit(scopeAt(account, T0), { requestLimit: 10, items: null, take: true });
        await writer.ensureAccount({ id: account, offer: 'ville', created_at: CREATED_AT, history_days: 0, annonces_from: '2026-01-01' });
        await writer.close();
        const reader = await target.open();
        expect(await reader.readUsage(scopeAt(account, T0 + HOUR))).to.deep.include({ day: 12, month: 12, requests: 1 });
        expect((await reader.getAccount(account))?.offer).to.equal('ville');
      });
    });
  });
}
