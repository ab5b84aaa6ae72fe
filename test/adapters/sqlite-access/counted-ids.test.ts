/**
 * The embedded counters answer "already counted?" from an in-memory directory of the append-only
 * `usage_log` (src/adapters/sqlite-access/counted-ids.ts). These tests hold the directory to the table when
 * another connection on the same file appends or removes rows, and when a counting rolls back.
 */
import { expect } from 'chai';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SqliteAccessStore } from '../../../src/adapters/sqlite-access/access-store.js';
import { DAY, HOUR, T0, scopeAt } from '../../conformance/access/scopes.js';

const BIG = { day: 1e6, month: 1e6 };

describe('SQLite usage counters: the in-memory directory of counted ids', () => {
  let dir: string;
  let file: string;
  let stores: SqliteAccessStore[];
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'access-directory-'));
    file = path.join(dir, 'access.sqlite');
    // Two connections on one file, as two API processes would have.
    stores = [SqliteAccessStore.open(file), SqliteAccessStore.open(file)];
  });
  afterEach(async () => {
    for (const store of stores) await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sees what another connection counted since it read its directory', async () => {
    const [a, b] = stores;
    expect((await a.consumeListings(scopeAt('acct', T0), ['x', 'y'], BIG)).added).to.equal(2);
    expect((await b.consumeListings(scopeAt('acct', T0 + 1), ['y', 'z'], BIG)).added).to.equal(1);
    const third = await a.consumeListings(scopeAt('acct', T0 + 2), ['z', 'w', 'x'], BIG);
    expect(third.added).to.equal(1);
    expect(third.usage).to.deep.include({ day: 4, month: 4 });
  });

  it('counts again a listing whose row another connection removed when it left the window', async () => {
    const [a, b] = stores;
    // A legacy account has the daily window only: its rows go 24 hours after they were counted.
    expect((await a.consumeListings(scopeAt('legacy', T0, 'legacy'), ['x'], BIG)).added).to.equal(1);
    expect(await b.readUsage(scopeAt('legacy', T0 + DAY + HOUR, 'legacy'))).to.deep.include({ day: 0 });
    expect(await a.footprint('legacy')).to.equal(0);
    const again = await a.consumeListings(scopeAt('legacy', T0 + DAY + 2 * HOUR, 'legacy'), ['x'], BIG);
    expect(again).to.deep.include({ added: 1 });
    expect(again.usage).to.deep.include({ day: 1 });
  });

  it('sees that another connection took its rows out of the monthly window (a new billing period)', async () => {
    const [a, b] = stores;
    const lastHour = Date.parse('2026-03-31T23:00:00Z');
    expect((await a.consumeListings(scopeAt('acct', lastHour), ['x', 'y'], BIG)).added).to.equal(2);
    // B rolls the period: x and y leave the monthly window and stay in the daily one.
    expect(await b.readUsage(scopeAt('acct', lastHour + 1.5 * HOUR))).to.deep.include({ day: 2, month: 0 });
    // For A they are new to the period again (its directory said "in the month"), not to the day.
    const next = await a.consumeListings(scopeAt('acct', lastHour + 2 * HOUR), ['x', 'y', 'z'], BIG);
    expect(next.added).to.equal(3);
    expect(next.usage).to.deep.include({ day: 3, month: 3 });
    // ... and its directory is right again afterwards: nothing counted twice.
    const again = await a.consumeListings(scopeAt('acct', lastHour + 3 * HOUR), ['x', 'y', 'z'], BIG);
    expect(again.added).to.equal(0);
    expect(again.usage).to.deep.include({ day: 3, month: 3 });
  });

  it('sees that another connection took its rows out of the daily window (and keeps its own expiry right)', async () => {
    const [a, b] = stores;
    // A rolling-month account: rows stay in the month after they leave the day.
    expect((await a.consumeListings(scopeAt('acct', T0, 'rolling'), ['x'], BIG)).added).to.equal(1);
    expect(await b.readUsage(scopeAt('acct', T0 + DAY + HOUR, 'rolling'))).to.deep.include({ day: 0, month: 1 });
    // x is no discovery for the month, so it costs nothing and the daily count stays 0.
    const next = await a.consumeListings(scopeAt('acct', T0 + DAY + 2 * HOUR, 'rolling'), ['x', 'y'], BIG);
    expect(next).to.deep.include({ added: 1 });
    expect(next.usage).to.deep.include({ day: 1, month: 2 });
    // A's own expiry: y leaves the day a day later, in A's transaction, then the rolling month ends
    // for x; x is a discovery again and enters both windows.
    const later = await a.consumeListings(scopeAt('acct', T0 + 31 * DAY, 'rolling'), ['x', 'y'], BIG);
    expect(later).to.deep.include({ added: 1 });
    expect(later.usage).to.deep.include({ day: 1, month: 2 });
  });

  it('does not take the listings of a counting that rolled back for counted ones', async () => {
    const [a, b] = stores;
    const sabotage = new Database(file);
    // Makes the end of A's next counting transaction fail after its rows were inserted.
    sabotage.exec("CREATE TRIGGER fail_count BEFORE UPDATE ON usage_windows WHEN NEW.day_count >= 3 BEGIN SELECT RAISE(ABORT, 'refused by the test'); END");
    let failure: unknown = null;
    await a.consumeListings(scopeAt('acct', T0), ['a', 'b', 'c'], BIG).catch((error: unknown) => {
      failure = error;
    });
    expect(String(failure)).to.contain('refused by the test');
    sabotage.exec('DROP TRIGGER fail_count');
    sabotage.close();
    expect(await a.footprint('acct')).to.equal(0);

    expect((await b.consumeListings(scopeAt('acct', T0 + 1), ['a'], BIG)).added).to.equal(1);
    const retried = await a.consumeListings(scopeAt('acct', T0 + 2), ['a', 'b', 'c'], BIG);
    expect(retried.added).to.equal(2);
    expect(retried.usage).to.deep.include({ day: 3, month: 3 });
  });

  it('does not trust what a failed counting wrote into the directory, even within the same commit group', async () => {
    const [a] = stores;
    expect((await a.consumeListings(scopeAt('acct', T0), ['p'], BIG)).added).to.equal(1);
    const sabotage = new Database(file);
    sabotage.exec("CREATE TRIGGER fail_count BEFORE UPDATE ON usage_windows WHEN NEW.day_count = 4 BEGIN SELECT RAISE(ABORT, 'refused by the test'); END");
    // Both in the same turn of the event loop: one transaction, the first piece rolled back to its savepoint.
    const [failed, next] = await Promise.allSettled([
      a.consumeListings(scopeAt('acct', T0 + 1), ['a', 'b', 'c'], BIG),
      a.consumeListings(scopeAt('acct', T0 + 2), ['a'], BIG),
    ]);
    sabotage.exec('DROP TRIGGER fail_count');
    sabotage.close();
    expect(failed.status).to.equal('rejected');
    expect(next.status).to.equal('fulfilled');
    if (next.status === 'fulfilled') {
      expect(next.value.added).to.equal(1);
      expect(next.value.usage).to.deep.include({ day: 2, month: 2 });
    }
    expect(await a.footprint('acct')).to.equal(4);
  });

  it('reads the directory back from the file after a restart', async () => {
    const [a] = stores;
    await a.consumeListings(scopeAt('acct', T0), ['a', 'b'], BIG);
    await a.close();
    stores[0] = SqliteAccessStore.open(file);
    const after = await stores[0].consumeListings(scopeAt('acct', T0 + 1), ['b', 'c'], BIG);
    expect(after.added).to.equal(1);
    expect(after.usage).to.deep.include({ day: 3, month: 3 });
  });

  it('keeps at most the bound of ids in memory, dropping the accounts that counted least recently', async () => {
    const bounded = SqliteAccessStore.open(file, { directoryEntries: 5 });
    stores.push(bounded);
    await bounded.consumeListings(scopeAt('first', T0), ['a', 'b', 'c'], BIG);
    await bounded.consumeListings(scopeAt('second', T0), ['a', 'b'], BIG);
    expect(bounded.directoryEntries()).to.equal(5);
    await bounded.consumeListings(scopeAt('third', T0), ['a', 'b'], BIG);
    // 'first' counted least recently: its three ids went.
    expect(bounded.directoryEntries()).to.equal(4);
    // Read again from the file when it counts again: nothing counted twice.
    const again = await bounded.consumeListings(scopeAt('first', T0 + 1), ['a', 'b', 'c', 'd'], BIG);
    expect(again.added).to.equal(1);
    expect(again.usage).to.deep.include({ day: 4, month: 4 });
    // One account above the bound alone keeps its directory whole.
    await bounded.consumeListings(scopeAt('big', T0), ['1', '2', '3', '4', '5', '6'], BIG);
    expect(bounded.directoryEntries()).to.equal(6);
  });
});
