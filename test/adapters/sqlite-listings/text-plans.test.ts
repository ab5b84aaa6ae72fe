/**
 * Full-text plans of the SQLite store: the document sets (text/document-sets.ts) of the index-first plan and the
 * department sets of the text-first plan never serve a stale answer, and the plan choice (text/plan.ts).
 */
import { expect } from 'chai';
import { SqliteListingStore } from '../../../src/adapters/sqlite-listings/listing-store.js';
import type { Scope, SearchQuery } from '../../../src/core/query/query.js';
import { makeListings } from '../../support/fixtures.js';
import { TextSetCache } from '../../../src/adapters/sqlite-listings/text/document-sets.js';
import { chooseTextPlan } from '../../../src/adapters/sqlite-listings/text/plan.js';
import { planned, storeHolding } from '../../support/sqlite-store-files.js';

describe('SQLite store: document sets of the index-first plan never serve a stale answer', () => {
  const ALL: Scope = { enteredFrom: 0, eligibleSites: null };
  const searchWord = (store: SqliteListingStore, word: string) =>
    store
      .search({ filter: { words: [word] }, scope: ALL, grouped: false, sort: 'recent', pageSize: 50, page: 1, after: null })
      .then((r) => r.items.map((l) => l.id));

  it('sees a write of another connection (the indexer) and of its own at the next search', async () => {
    const listings = makeListings({ count: 60, seed: 21 }).map((l) => ({ ...l, status: 'active' as const, has_photos: true, group_sites_ahead: [] }));
    const [first, second] = listings;
    const { file, store: api } = await storeHolding('ts', listings, { textPlan: 'index-first' });
    expect(await searchWord(api, 'xylophone')).to.deep.equal([]);
    // The indexer (another connection) gives one listing the word: the API's next search finds it.
    const indexer = new SqliteListingStore(file);
    await indexer.upsertMany([{ ...first, content: { ...first.content, title: 'Xylophone restauré' } }]);
    expect(await searchWord(api, 'xylophone')).to.deep.equal([first.id]);
    // ... and takes it away again while giving it to another one.
    await indexer.upsertMany([first, { ...second, content: { ...second.content, description: 'Un xylophone au fond du jardin.' } }]);
    expect(await searchWord(api, 'xylophone')).to.deep.equal([second.id]);
    // A write of the API's own connection counts too.
    await api.upsertMany([second]);
    expect(await searchWord(api, 'xylophone')).to.deep.equal([]);
    await indexer.close();
    await api.close();
  });
});

describe('SQLite store: department sets of the text-first plan never serve a stale answer', () => {
  const ALL: Scope = { enteredFrom: 0, eligibleSites: null };
  const search = (store: SqliteListingStore, department: string) =>
    store
      .search({ filter: { words: ['xylophone'], department }, scope: ALL, grouped: false, sort: 'recent', pageSize: 50, page: 1, after: null })
      .then((r) => r.items.map((l) => l.id));

  it('sees a listing move to another department, written by another connection or its own', async () => {
    const listings = makeListings({ count: 60, seed: 23 }).map((l) => ({ ...l, status: 'active' as const, has_photos: true, group_sites_ahead: [] }));
    const target = { ...listings[0], content: { ...listings[0].content, title: 'Xylophone restauré', department: '69' } };
    const { file, store: api } = await storeHolding('ds', [target, ...listings.slice(1)], { textPlan: 'text-first' });
    expect(await search(api, '69')).to.deep.equal([target.id]);
    expect(await search(api, '13')).to.deep.equal([]);
    // The indexer (another connection) moves it to the Bouches-du-Rhône.
    const indexer = new SqliteListingStore(file);
    await indexer.upsertMany([{ ...target, content: { ...target.content, department: '13' } }]);
    expect(await search(api, '13')).to.deep.equal([target.id]);
    expect(await search(api, '69')).to.deep.equal([]);
    // ... and the API's own connection moves it back.
    await api.upsertMany([target]);
    expect(await search(api, '69')).to.deep.equal([target.id]);
    expect(await search(api, '13')).to.deep.equal([]);
    await indexer.close();
    await api.close();
  });

  it("with the word's set current, starts from its intersection with the department's: no FTS5 read, the same pages", async () => {
    const listings = makeListings({ count: 300, seed: 29 }).map((l, i) => ({
      ...l,
      status: 'active' as const,
      has_photos: true,
      group_sites_ahead: [],
      content: { ...l.content, title: i % 4 === 0 ? `Grenier ${i}` : l.content.title },
    }));
    const { file, store } = await storeHolding('di', listings, { textPlan: 'text-first' });
    const checkedInFts = new SqliteListingStore(file, { textPlan: 'text-first', textSets: false });
    const searchWithPlan = planned(store);
    const departments = [...new Set(listings.map((l) => l.content.department!))];
    let matched = 0;
    for (const department of departments) {
      for (const sort of ['recent', 'price_asc'] as const) {
        const query: SearchQuery = { filter: { words: ['grenier'], department }, scope: ALL, grouped: false, sort, pageSize: 5, page: 1, after: null };
        const { page, plan } = await searchWithPlan(query);
        expect(plan, department).to.match(/^CO-ROUTINE l \| SCAN j VIRTUAL TABLE INDEX \d+:/);
        expect(plan, department).to.not.include('listings_fts');
        const expected = await checkedInFts.search(query);
        expect(
          page.items.map((l) => l.id),
          `${department} ${sort}`,
        ).to.deep.equal(expected.items.map((l) => l.id));
        expect(page.hasMore).to.equal(expected.hasMore);
        matched += page.items.length;
      }
    }
    expect(matched, 'pages with matches').to.be.greaterThan(20);
    await checkedInFts.close();
    await store.close();
  });
});

describe('SQLite store: document sets (text/document-sets.ts) and the plan choice', () => {
  it('intersects two sets from the rowids one of them keeps; null when neither keeps its rowids (both too big)', async () => {
    const { store } = await storeHolding('ti', makeListings({ count: 3, seed: 5 }));
    const sets = new TextSetCache(store.database);
    const evens = Array.from({ length: 60_000 }, (_, i) => 2 * i);
    const threes = Array.from({ length: 60_000 }, (_, i) => 3 * i);
    expect(sets.prepareRows('few', () => [9, 4, 12, 7, 200_000, 0])).to.equal(true);
    expect(sets.prepareRows('evens', () => evens)).to.equal(true);
    expect(sets.prepareRows('threes', () => threes)).to.equal(true);
    expect(sets.intersection('few', 'evens')).to.deep.equal([0, 4, 12]);
    expect(sets.intersection('evens', 'few'), 'either order').to.deep.equal([0, 4, 12]);
    expect(sets.intersection('threes', 'few')).to.deep.equal([0, 9, 12]);
    expect(sets.intersection('evens', 'threes'), '60 000 rows each').to.equal(null);
    await store.close();
  });

  it('reads a set again after a change, at most once a second; in between the caller checks rows in FTS5', async () => {
    const listings = makeListings({ count: 30, seed: 4 });
    const { store } = await storeHolding('tc', listings);
    const sets = new TextSetCache(store.database);
    const has = (rowid: number) => store.database.prepare('SELECT text_set_has(\'"xylophone"\', ?) AS x').pluck().get(rowid);
    const T = 1_000_000;
    expect(sets.prepare('"xylophone"', T)).to.equal(true);
    expect(has(1)).to.equal(0);
    await store.upsertMany([{ ...listings[0], content: { ...listings[0].content, title: 'Xylophone ancien' } }]);
    const rowid = store.database.prepare('SELECT rowid FROM listings WHERE id = ?').pluck().get(listings[0].id) as number;
    expect(sets.prepare('"xylophone"', T + 10), 'read 10 ms ago, and the store changed').to.equal(false);
    expect(sets.prepare('"xylophone"', T + 1_500)).to.equal(true);
    expect(has(rowid)).to.equal(1);
    await store.close();
  });

  it('index first wins earlier when rows are checked in a document set', () => {
    // 20 000 documents of 1M, a page of 25 (+1): text first reads 20 000 documents.
    expect(chooseTextPlan(20_000, 1_000_000, 26, 'fts')).to.equal('text-first');
    expect(chooseTextPlan(20_000, 1_000_000, 26, 'set')).to.equal('index-first');
    expect(chooseTextPlan(500, 1_000_000, 26, 'set')).to.equal('text-first');
    expect(chooseTextPlan(243_000, 1_000_000, 26, 'fts')).to.equal('index-first');
  });
});
