/**
 * Which index a SQLite search walks: the (department, type) indexes and the transaction indexes of
 * the price sorts, with the same pages as the other indexes give.
 */
import { expect } from 'chai';
import { SORTS, type ListingFilter, type Scope, type SearchQuery, type SortName } from '../../../src/core/query/query.js';
import { SORT_SPECS } from '../../../src/adapters/sqlite-listings/read/sorts.js';
import { makeListings } from '../../support/fixtures.js';
import { planned, storeHolding } from '../../support/sqlite-store-files.js';

describe('SQLite store: a department and one type walk the (department, type) index of their sort', () => {
  const ALL: Scope = { enteredFrom: 0, eligibleSites: null };
  const listings = makeListings({ count: 400, seed: 77 }).map((l) => ({ ...l, status: 'active' as const, has_photos: true, group_sites_ahead: [] }));

  it('in every sort, with the same pages (page 1 and by cursor) as the department index gives', async () => {
    const { store } = await storeHolding('dt', listings);
    // The same listings in a store without the (department, type) indexes: the department's indexes serve.
    const { store: without } = await storeHolding('dt', listings);
    for (const sort of SORTS) without.database.exec(`DROP INDEX ix_main_dept_type_${sort}`);
    const ids = (items: readonly { id: string }[]) => items.map((item) => item.id);
    const searchWithPlan = planned(store);
    for (const sort of SORTS) {
      for (const types of [['maison'], ['appartement'], ['maison', 'terrain']]) {
        const query: SearchQuery = { filter: { department: '75', types }, scope: ALL, grouped: true, sort, pageSize: 7, page: 1, after: null };
        const first = await searchWithPlan(query);
        const expected = await without.search(query);
        // One type: the sort's (department, type) index; several: the department's, whose entries are checked.
        const index = types.length === 1 ? `ix_main_dept_type_${sort}` : `ix_main_dept_${sort}`;
        expect(first.plan, `${sort} ${types}`).to.match(
          new RegExp(`USING (COVERING )?INDEX ${index} \\(department=\\?${types.length === 1 ? ' AND type_norm=\\?' : ''}\\)`),
        );
        expect(first.page.items.length, `${sort} ${types}`).to.equal(7);
        expect(ids(first.page.items), `${sort} ${types}`).to.deep.equal(ids(expected.items));
        const next = await store.search({ ...query, after: first.page.last });
        expect(next.items, `${sort} ${types}, by cursor`).to.not.be.empty;
        expect(ids(next.items), `${sort} ${types}, by cursor`).to.deep.equal(ids((await without.search({ ...query, after: expected.last })).items));
      }
    }
    await store.close();
    await without.close();
  });

  it('with statistics (reindex runs ANALYZE), a type without a department never skip-scans them', async () => {
    const { store } = await storeHolding('dt', listings);
    store.rebuildIndexes();
    expect(store.database.prepare("SELECT count(*) FROM sqlite_stat1 WHERE idx LIKE 'ix_main_dept_type_%'").pluck().get()).to.equal(SORTS.length);
    expect(store.database.prepare("SELECT count(*) FROM sqlite_stat1 WHERE idx LIKE 'ix_main_tx_%' AND stat LIKE '% noskipscan'").pluck().get()).to.equal(6);
    const searchWithPlan = planned(store);
    for (const sort of SORTS) {
      const query: SearchQuery = { filter: { types: ['maison'] }, scope: ALL, grouped: true, sort, pageSize: 7, page: 1, after: null };
      const { page, plan } = await searchWithPlan(query);
      expect(plan, sort).to.not.include('ANY(department)').and.not.include('ANY(transaction_type)');
      expect(plan, sort).to.not.include('TEMP B-TREE');
      expect(page.items, sort).to.have.length(7);
      // Statistics on a store that has them already: the switch is kept, written once.
      store.analyze();
      expect(store.database.prepare('SELECT stat FROM sqlite_stat1 WHERE idx = ?').pluck().get(`ix_main_dept_type_${sort}`)).to.match(/\d noskipscan$/);
    }
    await store.close();
  });

  it('a postal code or a city drives the plan (its index), whatever the department and the type', async () => {
    const { store } = await storeHolding('dt', listings);
    const searchWithPlan = planned(store);
    const cases: [ListingFilter, string][] = [
      [{ postalCode: '75008' }, 'ix_main_cp_recent (postal_code=?)'],
      [{ cities: ['paris'] }, 'ix_main_city_recent (city_norm=?)'],
    ];
    for (const [narrower, index] of cases) {
      const query: SearchQuery = {
        filter: { department: '75', types: ['maison'], ...narrower },
        scope: ALL,
        grouped: true,
        sort: 'recent',
        pageSize: 50,
        page: 1,
        after: null,
      };
      const { page, plan } = await searchWithPlan(query);
      expect(plan).to.include(`INDEX ${index}`);
      // The department still filters: the same page as without it (the place is in it), and none with another one.
      const withoutDepartment = await store.search({ ...query, filter: { types: ['maison'], ...narrower } });
      expect(page.items.map((l) => l.id)).to.deep.equal(withoutDepartment.items.map((l) => l.id)).and.to.not.be.empty;
      expect((await store.search({ ...query, filter: { ...query.filter, department: '69' } })).items).to.deep.equal([]);
    }
    await store.close();
  });
});

describe('SQLite store: a transaction in the price sorts across France walks its transaction index', () => {
  const ALL: Scope = { enteredFrom: 0, eligibleSites: null };
  const listings = makeListings({ count: 400, seed: 78 }).map((l) => ({ ...l, status: 'active' as const, has_photos: true, group_sites_ahead: [] }));
  const PRICE_SORTS = SORTS.filter((sort) => SORT_SPECS[sort].byTransaction);
  const query = (sort: SortName, filter: ListingFilter): SearchQuery => ({ filter, scope: ALL, grouped: true, sort, pageSize: 7, page: 1, after: null });
  const ids = (items: readonly { id: string }[]) => items.map((item) => item.id);
  /** The same listings in a store without the transaction indexes: the sort indexes serve, the reference pages. */
  const storeWithoutTransactionIndexes = async () => {
    const { store } = await storeHolding('tx', listings);
    for (const sort of PRICE_SORTS) store.database.exec(`DROP INDEX ix_main_tx_${sort}; DROP INDEX ix_main_tx_type_${sort}`);
    return store;
  };

  it('in the price sorts, with the same pages (page 1 and by cursor) as the sort indexes give', async () => {
    expect(PRICE_SORTS).to.have.members(['price_asc', 'price_desc', 'pricem2_asc']);
    const { store } = await storeHolding('tx', listings);
    const without = await storeWithoutTransactionIndexes();
    const searchWithPlan = planned(store);
    const cases: [ListingFilter, RegExp][] = [
      [{ transaction: 'vente' }, /INDEX ix_main_tx_SORT \(transaction_type=\?\)/],
      [{ transaction: 'location' }, /INDEX ix_main_tx_SORT \(transaction_type=\?\)/],
      [{ transaction: 'vente', types: ['maison'] }, /INDEX ix_main_tx_type_SORT \(transaction_type=\? AND type_norm=\?\)/],
      // Several types: the transaction's index, whose entries hold the type.
      [{ transaction: 'vente', types: ['maison', 'appartement'] }, /INDEX ix_main_tx_SORT \(transaction_type=\?\)/],
    ];
    for (const sort of PRICE_SORTS) {
      for (const [filter, index] of cases) {
        const label = `${sort} ${JSON.stringify(filter)}`;
        const first = await searchWithPlan(query(sort, filter));
        expect(first.plan, label).to.match(new RegExp(index.source.replace('SORT', sort)));
        expect(first.plan, label).to.not.include('TEMP B-TREE');
        expect(first.page.items, label).to.have.length(7);
        const expected = await without.search(query(sort, filter));
        expect(ids(first.page.items), label).to.deep.equal(ids(expected.items));
        const next = await store.search({ ...query(sort, filter), after: first.page.last });
        expect(next.items, `${label}, by cursor`).to.not.be.empty;
        expect(ids(next.items), `${label}, by cursor`).to.deep.equal(ids((await without.search({ ...query(sort, filter), after: expected.last })).items));
      }
    }
    await store.close();
    await without.close();
  });

  it('with statistics (reindex runs ANALYZE), still in the price sorts, never a skip-scan in the others', async () => {
    const { store } = await storeHolding('tx', listings);
    store.rebuildIndexes();
    const searchWithPlan = planned(store);
    for (const sort of SORTS) {
      const { page, plan } = await searchWithPlan(query(sort, { transaction: 'location', types: ['appartement'] }));
      if (SORT_SPECS[sort].byTransaction) expect(plan, sort).to.include(`INDEX ix_main_tx_type_${sort} (transaction_type=? AND type_norm=?)`);
      else expect(plan, sort).to.not.include('ix_main_tx_');
      expect(plan, sort).to.not.include('TEMP B-TREE').and.not.include('ANY(');
      expect(page.items, sort).to.not.be.empty;
    }
    await store.close();
  });

  it('a region with them is tested on the index entries (a covering plan), with the same pages', async () => {
    const { store } = await storeHolding('tx', listings);
    const without = await storeWithoutTransactionIndexes();
    const searchWithPlan = planned(store);
    for (const sort of PRICE_SORTS) {
      for (const [filter, index] of [
        [{ transaction: 'vente', region: 'ile de france' }, `ix_main_tx_${sort}`],
        [{ transaction: 'vente', types: ['appartement'], region: 'auvergne rhone alpes' }, `ix_main_tx_type_${sort}`],
      ] as [ListingFilter, string][]) {
        const { page, plan } = await searchWithPlan(query(sort, filter));
        // pricem2_asc reads price_per_m2 from the row of each listing of the page (the index holds only
        // the sort key's expression), so its plan is never covering; the region is still tested on the entry.
        expect(plan, `${sort} ${JSON.stringify(filter)}`).to.include(`USING ${sort === 'pricem2_asc' ? '' : 'COVERING '}INDEX ${index} `);
        expect(page.items, `${sort} ${JSON.stringify(filter)}`).to.not.be.empty;
        expect(ids(page.items)).to.deep.equal(ids((await without.search(query(sort, filter))).items));
      }
    }
    await store.close();
    await without.close();
  });

  it('never in the other sorts, nor with a place, whose indexes drive the plan', async () => {
    const { store } = await storeHolding('tx', listings);
    const searchWithPlan = planned(store);
    const sold = new Set(listings.filter((l) => l.content.transaction_type === 'vente').map((l) => l.id));
    for (const sort of SORTS.filter((s) => !SORT_SPECS[s].byTransaction)) {
      const { page, plan } = await searchWithPlan(query(sort, { transaction: 'vente' }));
      expect(plan, sort).to.not.include('ix_main_tx_');
      expect(plan, sort).to.not.include('TEMP B-TREE');
      expect(page.items, sort).to.have.length(7);
    }
    for (const sort of PRICE_SORTS) {
      const { plan } = await searchWithPlan(query(sort, { transaction: 'vente', department: '75', types: ['maison'] }));
      expect(plan, sort).to.include(`INDEX ix_main_dept_type_${sort} (department=? AND type_norm=?)`);
      const inDepartment = await searchWithPlan(query(sort, { transaction: 'vente', department: '75' }));
      expect(inDepartment.plan, sort).to.include(`INDEX ix_main_dept_${sort} (department=?)`);
      // The transaction still filters: every listing of the page has it.
      expect(
        inDepartment.page.items.every((item) => sold.has(item.id)),
        sort,
      ).to.equal(true);
      expect(inDepartment.page.items, sort).to.not.be.empty;
    }
    await store.close();
  });
});
