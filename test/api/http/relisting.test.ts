/**
 * Relisted properties over HTTP, with the real indexer writing (indexer/relisting.ts): a flat on
 * leboncoin and seloger, both withdrawn, then republished on seloger under a new reference at a lower
 * price. The new listing carries `relisted_from` and the group's first-seen, its detail's price series
 * continues the withdrawn one, and `relistee` filters it; a listing appearing beyond 90 days, and the
 * flat two floors up at a close price, are no relistings.
 */
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../support/app.js';
import { describeEngines } from '../../support/engines.js';
import { groupedLoader } from '../../support/grouped-load.js';
import { flat, neighbour, onLeboncoin, onSeloger, type Raw } from '../../indexer/dedup/raw-flats.js';

const at = (day: string) => `${day}T10:00:00Z`;

/** Another property (another district, its own text), withdrawn, and the same one back 120 days later. */
const house = (reference: string, overrides: Raw = {}) =>
  flat('pap', reference, {
    postal_code: '69007',
    price: '210 000 €',
    surface: '41,2 m²',
    rooms: 2,
    bedrooms: 1,
    description: 'Deux pièces à Gerland au 1er étage, séjour sur cour, cuisine séparée, une chambre et salle de douche. Cave et vélos.',
    dpe: 'E',
    ges: 'E',
    dpe_value: 260,
    ges_value: 40,
    year_built: 1962,
    ...overrides,
  });

describeEngines('relisted properties over HTTP (relisted_from, first_seen_at, relistee)', function (engine) {
  this.timeout(60_000);
  let app: TestApp;
  let key: string;
  const loadRaw = groupedLoader(() => app.service.listingStore, Date.parse('2027-03-01T00:00:00Z'));
  async function load(records: Raw[]) {
    const report = await loadRaw(records);
    expect(report.rejected, JSON.stringify(report.rejected_reasons)).to.equal(0);
    return report;
  }
  const annonces = async (query: string) => {
    const { status, body } = await app.get(`/annonces?page_size=50&dedup=0${query}`, key);
    expect(status, JSON.stringify(body)).to.equal(200);
    return body.items as any[];
  };
  const ids = (items: any[]) => items.map((i) => `${i.source}:${i.reference}`).sort();

  before(async () => {
    app = await startTestApp({ engine });
    // After the loads' writes, beyond the flows' settling delay.
    app.clock.now = Date.parse('2027-03-02T00:00:00Z');
    key = await app.newKey('sur_mesure');
    // The flat: first on leboncoin, a month later on seloger (one group), its price cut on seloger.
    await load([onLeboncoin({ collected_at: at('2026-07-01') })]);
    await load([onSeloger({ collected_at: at('2026-08-01') }), house('PAP-7', { collected_at: at('2026-08-01') })]);
    await load([onSeloger({ collected_at: at('2026-09-01'), price: '315 000 €' })]);
    // Both copies withdrawn; the other property too.
    await load([
      onLeboncoin({ collected_at: at('2026-09-10'), status: 'retirée' }),
      onSeloger({ collected_at: at('2026-09-10'), price: '315 000 €', status: 'retirée' }),
      house('PAP-7', { collected_at: at('2026-09-10'), status: 'retirée' }),
    ]);
    // Back on seloger under a new reference, 5 % cheaper, three weeks later; the flat two floors up
    // at a close price; the other property back 120 days after it left.
    const report = await load([
      flat('seloger', 'SL-2', { collected_at: at('2026-10-01'), price: '299 000 €' }),
      neighbour('seloger', 'SL-N', { collected_at: at('2026-10-02'), price: '305 000 €', description: null }),
      neighbour('bienici', 'BI-N', { collected_at: at('2026-10-02'), price: '305 000 €' }),
      house('PAP-8', { collected_at: at('2027-01-08') }),
    ]);
    expect(report.relisted).to.equal(1);
  });
  after(async () => {
    await app.close();
  });

  it('a relisted listing carries relisted_from and the first-seen of the property across its sites', async () => {
    const [item] = (await annonces('&cp=69003')).filter((i) => i.reference === 'SL-2');
    expect(item.relisted_from).to.deep.equal({ source: 'seloger', reference: 'SL-1', withdrawn_at: '2026-09-10T10:00:00.000Z', price: 315000 });
    // leboncoin saw the flat first, a month before seloger: that is when it came on the market.
    expect(item.first_seen_at).to.equal('2026-07-01T10:00:00.000Z');
    // Its price history continues: the earlier listing's last price is the previous one.
    expect(item.price_history).to.include({ current: 299000, previous: 315000, changes: 2, tracked_since: '2026-08-01T10:00:00.000Z' });
  });

  it("the detail's price series holds the earlier listing's readings first", async () => {
    const { status, body } = await app.get('/annonces/seloger/SL-2', key);
    expect(status).to.equal(200);
    expect(body.annonce.price_history.points).to.deep.equal([
      { at: '2026-08-01T10:00:00.000Z', price: 320000 },
      { at: '2026-09-01T10:00:00.000Z', price: 315000 },
      { at: '2026-10-01T10:00:00.000Z', price: 299000 },
    ]);
    expect(body.annonce.relisted_from.reference).to.equal('SL-1');
  });

  it('relistee=true returns the relistings only, relistee=false the others', async () => {
    expect(ids(await annonces('&relistee=true'))).to.deep.equal(['seloger:SL-2']);
    expect(ids(await annonces('&relistee=false'))).to.deep.equal(['bienici:BI-N', 'pap:PAP-8', 'seloger:SL-N']);
    expect(ids(await annonces(''))).to.deep.equal(['bienici:BI-N', 'pap:PAP-8', 'seloger:SL-2', 'seloger:SL-N']);
    const { status, body } = await app.get('/annonces?relistee=oui', key);
    expect(status).to.equal(400);
    expect(JSON.stringify(body)).to.contain('relistee');
  });

  it('a listing appearing more than 90 days after the withdrawal is no relisting', async () => {
    const [item] = await annonces('&cp=69007');
    expect(item).to.include({ reference: 'PAP-8', relisted_from: null, first_seen_at: '2027-01-08T10:00:00.000Z' });
  });

  it('the flat two floors up at a close price is no relisting', async () => {
    const items = (await annonces('&cp=69003')).filter((i) => i.reference !== 'SL-2').sort((a, b) => (a.reference < b.reference ? -1 : 1));
    expect(items.map((i) => [i.reference, i.relisted_from])).to.deep.equal([
      ['BI-N', null],
      ['SL-N', null],
    ]);
    // The two copies of that flat are one group, which counts from its first copy.
    expect(items.map((i) => i.first_seen_at)).to.deep.equal(['2026-10-02T10:00:00.000Z', '2026-10-02T10:00:00.000Z']);
  });

  it('the withdrawn flow shows the earlier listing as it left', async () => {
    const { body } = await app.get('/annonces/retirees?page_size=100', key);
    const earlier = body.items.find((i: any) => i.reference === 'SL-1');
    expect(earlier).to.include({ reason: 'retiree', withdrawn_at: '2026-09-10T10:00:00.000Z', relisted_from: null });
    expect(earlier.first_seen_at).to.equal('2026-07-01T10:00:00.000Z');
  });
});
