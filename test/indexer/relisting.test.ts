/**
 * Which withdrawals a new listing may relist (indexer/relisting.ts), through the real load: a sale is
 * final, a listing under offer that falls through and comes back is a relisting, the same batch's
 * withdrawal counts, and so do the limits of the window on both sides.
 */
import { expect } from 'chai';
import { SqliteListingStore } from '../../src/adapters/sqlite-listings/listing-store.js';
import { groupedLoader } from '../support/grouped-load.js';
import { flat } from './dedup/raw-flats.js';

describe('relistings found by the load', () => {
  let store: SqliteListingStore;
  let load: ReturnType<typeof groupedLoader>;
  beforeEach(() => {
    store = new SqliteListingStore(':memory:');
    load = groupedLoader(() => store, Date.parse('2027-03-01T00:00:00Z'));
  });
  afterEach(() => store.close());

  const relistedFrom = async (id: string) => (await store.getMany([id])).get(id)?.relisted_from ?? null;
  const earlier = (status: string, day = '2026-09-10') => flat('pap', 'OLD', { collected_at: `${day}T10:00:00Z`, status });
  const fresh = (day = '2026-10-01', source = 'leboncoin') => flat(source, 'NEW', { collected_at: `${day}T10:00:00Z` });

  it('a property sold is not relisted; one under offer that comes back is', async () => {
    await load([earlier('vendue')]);
    await load([fresh()]);
    expect(await relistedFrom('leboncoin:NEW')).to.equal(null);
    await load([flat('pap', 'OLD2', { collected_at: '2026-09-12T10:00:00Z', status: 'sous compromis' })]);
    await load([fresh('2026-10-02', 'bienici')]);
    expect(await relistedFrom('bienici:NEW')).to.include({ source: 'pap', reference: 'OLD2', withdrawn_at: Date.parse('2026-09-12T10:00:00Z') });
  });

  it('a withdrawal in the same batch counts; one after the new listing appeared does not (the earlier one is taken)', async () => {
    const report = await load([fresh(), earlier('retirée')]);
    expect(report.relisted).to.equal(1);
    expect(await relistedFrom('leboncoin:NEW')).to.include({ reference: 'OLD' });
    await load([flat('pap', 'LATE', { collected_at: '2026-10-05T10:00:00Z', status: 'retirée' })]);
    await load([flat('seloger', 'NEW2', { collected_at: '2026-10-04T10:00:00Z' })]);
    expect(await relistedFrom('seloger:NEW2')).to.include({ reference: 'OLD' });
  });

  it('the window is 90 days from the withdrawal, bounds included', async () => {
    await load([earlier('retirée', '2026-07-01')]);
    await load([fresh('2026-09-29'), fresh('2026-09-30', 'bienici')]);
    expect(await relistedFrom('leboncoin:NEW')).to.include({ reference: 'OLD' });
    expect(await relistedFrom('bienici:NEW')).to.equal(null);
  });
});
