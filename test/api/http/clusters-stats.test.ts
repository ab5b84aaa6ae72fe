/**
 * GET /annonces/map/clusters and GET /stats over HTTP on both engines: the answers against the
 * oracle and the OpenAPI document, the errors, and who may call them at what cost (docs/api.md
 * "What is counted").
 */
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../support/app.js';
import { describeEngines } from '../../support/engines.js';
import { Contract } from '../../support/contract.js';
import { NO_RATE_WINDOWS, offersWith } from '../access/support/quota-app.js';
import { aggregateListings, expectedCells, expectedStats, exactQuartiles, NOW } from '../../support/aggregates-oracle.js';
import { DAY_MS } from '../../../src/core/query/aggregates.js';
import { inBox } from '../../support/oracle.js';
import type { StoredListing } from '../../../src/core/model/stored.js';

const ALL = { enteredFrom: 0, eligibleSites: null };
const FRANCE = '41,-5.5,51.5,10';

describeEngines('map clusters and market statistics', function (engine) {
  this.timeout(60_000);
  const listings = aggregateListings(500, 43);
  let app: TestApp;
  let contract: Contract;
  let paid: string;
  let cheap: string;

  before(async () => {
    app = await startTestApp({
      listings,
      engine,
      deps: { offers: offersWith({ decouverte: { itemsPerMonth: 2, itemsPerDay: 2 }, region: { itemsPerMonth: 2, itemsPerDay: 2 } }, NO_RATE_WINDOWS) },
    });
    app.clock.now = NOW;
    paid = await app.newKey('departement');
    cheap = await app.newKey('ville');
    contract = new Contract((await app.get('/openapi.json')).body);
  });
  after(async () => {
    await app.close();
  });

  const conform = async (path: string, key: string, status: number) => {
    const answer = await app.get(path, key);
    expect(answer.status, `${path}: ${JSON.stringify(answer.body).slice(0, 300)}`).to.equal(status);
    contract.check(path.split('?')[0], answer);
    return answer;
  };

  describe('GET /annonces/map/clusters', () => {
    for (const [bbox, zoom, filters] of [
      [FRANCE, 5, ''],
      ['48.8,2.2,48.95,2.45', 12, ''],
      [FRANCE, 7, '&transaction=vente&type=maison'],
      ['-30,179,-10,-179', 6, ''],
    ] as const) {
      it(`counts add up to the map's total: ${bbox} at zoom ${zoom}${filters}`, async () => {
        const { body } = await conform(`/annonces/map/clusters?bbox=${bbox}&zoom=${zoom}${filters}`, cheap, 200);
        const map = await app.get(`/annonces/map?bbox=${bbox}${filters}`, cheap);
        expect(map.body.total).to.be.greaterThan(0);
        expect(body.total).to.equal(map.body.total);
        expect(body.cells.reduce((sum: number, cell: { count: number }) => sum + cell.count, 0)).to.equal(map.body.total);
        const [south, west, north, east] = bbox.split(',').map(Number);
        const filter = filters ? { transaction: 'vente' as const, types: ['maison'] } : {};
        const expected = expectedCells(listings, filter, ALL, true, { south, west, north, east }, zoom);
        expect(body.cells.map((c: { x: number; y: number }) => `${c.x}/${c.y}`).sort()).to.deep.equal([...expected.keys()].sort());
        // North to south, then west to east.
        const order = body.cells.map((c: { x: number; y: number }) => c.y * 2 ** zoom + c.x);
        expect(order).to.deep.equal([...order].sort((a: number, b: number) => a - b));
        for (const cell of body.cells) {
          const want = expected.get(`${cell.x}/${cell.y}`)!;
          expect(cell.count).to.equal(want.count);
          expect(cell.price_min).to.equal(want.priceMin);
          if (engine === 'sqlite') expect(cell.price_median).to.equal(exactQuartiles(want.prices).median);
          expect(cell.id).to.equal(want.count === 1 ? want.ids[0] : null);
        }
      });
    }

    it("gives a lone listing's id, which the detail answers", async () => {
      const { body } = await app.get('/annonces/map/clusters?bbox=45.7,4.8,45.8,4.95&zoom=16', paid);
      const lone = body.cells.find((cell: { id: string | null }) => cell.id !== null);
      expect(lone, 'a tile with one listing').to.not.equal(undefined);
      const [source, reference] = lone.id.split(':');
      expect((await app.get(`/annonces/${source}/${reference}`, paid)).status).to.equal(200);
    });

    it('refuses a missing or out-of-range zoom (400), a box of too many tiles or upside down (422), site filters below Département (402)', async () => {
      const missing = await conform('/annonces/map/clusters?bbox=45,4,46,5', cheap, 400);
      expect(missing.body.details.map((d: { field: string }) => d.field)).to.deep.equal(['zoom']);
      expect((await conform('/annonces/map/clusters?bbox=45,4,46,5&zoom=21', cheap, 400)).body.code).to.equal('BAD_REQUEST');
      const wide = await conform('/annonces/map/clusters?bbox=41,-5.5,51.5,10&zoom=15', cheap, 422);
      expect(wide.body.details[0].field).to.equal('zoom');
      expect((await conform('/annonces/map/clusters?bbox=46,4,45,5&zoom=3', cheap, 422)).body.code).to.equal('UNPROCESSABLE');
      expect((await conform('/annonces/map/clusters?bbox=45,4,46,5&zoom=3&sources=pap', cheap, 402)).body.code).to.equal('PAID_PLAN_REQUIRED');
      expect((await app.get('/annonces/map/clusters?bbox=45,4,46,5&zoom=3&sources=pap', paid)).status).to.equal(200);
    });
  });

  describe('GET /stats', () => {
    const since = NOW - 90 * DAY_MS;
    const inDepartment = (l: StoredListing) => l.content.department === '69';

    it('counts the active and recently withdrawn listings of a department, with their quartiles', async () => {
      const { body } = await conform('/stats?dept=69', paid, 200);
      const want = expectedStats(listings.filter(inDepartment), ALL, true, since);
      expect(body.area).to.deep.equal({ kind: 'department', code: '69', name: 'Rhône', bbox: null });
      expect(body.exact).to.equal(engine === 'sqlite');
      expect(body.active.count).to.equal(want.active.count).and.to.be.greaterThan(20);
      expect(body.withdrawn.count).to.equal(want.withdrawn.count).and.to.be.greaterThan(2);
      expect(body.withdrawn.since).to.equal(new Date(since).toISOString());
      expect(body.active.price.count).to.equal(want.active.price.length);
      if (engine === 'sqlite') {
        const { count, q1, median, q3 } = exactQuartiles(want.active.pricePerM2);
        expect(body.active.price_per_m2).to.deep.equal({ count, q1, median, q3 });
      }
      // Withdrawn figures are exact on both engines.
      const days = exactQuartiles(want.withdrawn.days);
      expect(body.withdrawn.days_on_market).to.deep.equal({ count: days.count, q1: days.q1, median: days.median, q3: days.q3 });
      const discount = exactQuartiles(want.withdrawn.discount);
      expect(body.withdrawn.discount_percent.median).to.be.closeTo(discount.median!, 1e-9);
    });

    it('takes a commune by INSEE code (Lyon: all its postal codes), a postal code, a box, and the criteria', async () => {
      const lyon = await conform('/stats?commune=69123&type=appartement&transaction=vente&pieces_min=2&pieces_max=4', paid, 200);
      const criteria = (l: StoredListing) =>
        l.content.type === 'Appartement' && l.content.transaction_type === 'vente' && l.content.rooms !== null && l.content.rooms >= 2 && l.content.rooms <= 4;
      const want = expectedStats(
        listings.filter((l) => l.content.city === 'Lyon' && criteria(l)),
        ALL,
        true,
        since,
      );
      expect(lyon.body.area).to.deep.include({ kind: 'commune', code: '69123', name: 'Lyon' });
      expect(lyon.body.active.count).to.equal(want.active.count).and.to.be.greaterThan(0);
      expect(lyon.body.withdrawn.count).to.equal(want.withdrawn.count);
      const cp = await conform('/stats?cp=75016&dedup=0', paid, 200);
      const wantCp = expectedStats(
        listings.filter((l) => l.content.postal_code === '75016'),
        ALL,
        false,
        since,
      );
      expect(cp.body.active.count).to.equal(wantCp.active.count);
      const box = await conform('/stats?bbox=-30,179,-10,-179', paid, 200);
      const wantBox = expectedStats(
        listings.filter((l) => inBox(l, { south: -30, west: 179, north: -10, east: -179 })),
        ALL,
        true,
        since,
      );
      expect(box.body.active.count).to.equal(wantBox.active.count).and.to.be.greaterThan(0);
    });

    it('needs exactly one known area (400) and consistent rooms (422)', async () => {
      expect((await conform('/stats?type=maison', paid, 400)).body.details[0].message).to.match(/exactly one area/);
      expect((await conform('/stats?dept=69&cp=69003', paid, 400)).body.details[0].field).to.equal('dept');
      expect((await conform('/stats?commune=99999', paid, 400)).body.details[0].field).to.equal('commune');
      expect((await conform('/stats?dept=69&pieces_min=4&pieces_max=2', paid, 422)).body.code).to.equal('UNPROCESSABLE');
    });
  });

  describe('offers and metering', () => {
    const used = (headers: Headers) => ({ items: Number(headers.get('x-quota-items-used')), requests: Number(headers.get('x-quota-requests-used')) });

    it('/stats needs an offer from Département up: 402 PAID_PLAN_REQUIRED below, without taking a request', async () => {
      const refused = await conform('/stats?dept=69', cheap, 402);
      expect(refused.body.code).to.equal('PAID_PLAN_REQUIRED');
      const before = used((await app.get('/annonces/map?bbox=45,4,46,5', cheap)).headers);
      await app.get('/stats?dept=69', cheap);
      const after = used((await app.get('/annonces/map?bbox=45,4,46,5', cheap)).headers);
      expect(after.requests).to.equal(before.requests + 1);
    });

    it('each call takes one request and counts no listing', async () => {
      const key = await app.newKey('departement');
      const first = used((await app.get('/annonces/map/clusters?bbox=45.7,4.8,45.8,4.95&zoom=16', key)).headers);
      const second = used((await app.get('/stats?dept=69', key)).headers);
      expect(first).to.deep.equal({ items: 0, requests: 1 });
      expect(second).to.deep.equal({ items: 0, requests: 2 });
    });

    it('once the monthly listing quota is reached, clusters and statistics are refused as the map is', async () => {
      const key = await app.newKey('decouverte');
      expect((await app.get('/annonces?page_size=5', key)).status).to.equal(200);
      expect((await app.get('/annonces/map?bbox=45,4,46,5', key)).body.code).to.equal('ITEMS_QUOTA');
      expect((await conform('/annonces/map/clusters?bbox=45,4,46,5&zoom=3', key, 402)).body.code).to.equal('ITEMS_QUOTA');
      // The free offer has no market statistics at all; a paid account past its quota is refused them
      // too: only /ping answers past a listing quota (docs/api.md, "What is counted").
      expect((await app.get('/stats?dept=69', key)).body.code).to.equal('PAID_PLAN_REQUIRED');
      const paidPastQuota = await app.newKey('region');
      expect((await conform('/stats?dept=69', paidPastQuota, 200)).body.active.count).to.be.greaterThan(0);
      expect((await app.get('/annonces?page_size=5', paidPastQuota)).status).to.equal(200);
      expect((await app.get('/annonces/map/clusters?bbox=45,4,46,5&zoom=3', paidPastQuota)).body.code).to.equal('ITEMS_QUOTA');
      expect((await conform('/stats?dept=69', paidPastQuota, 402)).body.code).to.equal('ITEMS_QUOTA');
    });
  });
});
