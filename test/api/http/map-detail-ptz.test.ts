/** GET /annonces/map, /annonces/{source}/{reference}, /ptz/zone, /sources, /ping, /health over HTTP. */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { startTestApp, type TestApp } from '../../support/app.js';
import { describeEngines } from '../../support/engines.js';
import { makeListings } from '../../support/fixtures.js';
import { inBox } from '../../support/oracle.js';
import type { StoredListing } from '../../../src/core/model/stored.js';

describeEngines('map, detail, PTZ, sources, ping, health', function (engine) {
  const listings = makeListings({ count: 300, seed: 5 });
  const withSeries: StoredListing = {
    ...listings.find((l) => l.status === 'active')!,
    price_points: [
      { at: '2026-06-23T00:00:00.000Z', price: 300000 },
      { at: '2026-07-10T10:00:00.000Z', price: 290000 },
      { at: '2026-08-01T10:00:00.000Z', price: 280000 },
    ],
  };
  let app: TestApp;
  let paidKey: string;
  let cheapKey: string;

  before(async () => {
    app = await startTestApp({ listings: listings.map((l) => (l.id === withSeries.id ? withSeries : l)), engine });
    paidKey = await app.newKey('sur_mesure');
    cheapKey = await app.newKey('ville');
  });
  after(async () => {
    await app.close();
  });

  describe('GET /annonces/map', () => {
    const visible = (l: StoredListing) => l.status === 'active' && l.has_photos && l.group_sites_ahead.length === 0;

    it('returns the points of the box, the exact total and the bbox as an object', async () => {
      const { status, body } = await app.get('/annonces/map?bbox=45,4,46,5', paidKey);
      expect(status).to.equal(200);
      const expected = listings.filter((l) => visible(l) && inBox(l, { south: 45, west: 4, north: 46, east: 5 }));
      expect(body.bbox).to.deep.equal({ south: 45, west: 4, north: 46, east: 5 });
      expect(body.total).to.equal(expected.length);
      expect(body.capped).to.equal(false);
      expect(body.items.map((p: { reference: string }) => p.reference).sort()).to.deep.equal(expected.map((l) => l.content.reference).sort());
      const point = body.items[0];
      expect(Object.keys(point)).to.deep.equal([
        'source',
        'reference',
        'latitude',
        'longitude',
        'price',
        'price_per_m2',
        'surface',
        'price_per_m2_color',
        'type',
        'title',
        'city',
        'postal_code',
        'image',
        'rooms',
        'is_internal',
      ]);
      const original = listings.find((l) => l.content.reference === point.reference)!;
      expect(point.image).to.equal(original.content.images[0]);
    });

    it('applies the /annonces filters', async () => {
      const { body } = await app.get('/annonces/map?bbox=40,-5,52,10&type=maison&transaction=vente', paidKey);
      const expected = listings.filter(
        (l) => visible(l) && inBox(l, { south: 40, west: -5, north: 52, east: 10 }) && l.content.type === 'Maison' && l.content.transaction_type === 'vente',
      );
      expect(body.total).to.equal(expected.length);
    });

    it('works across the antimeridian', async () => {
      const { status, body } = await app.get('/annonces/map?bbox=-30,179,-10,-179', paidKey);
      expect(status).to.equal(200);
      const expected = listings.filter((l) => visible(l) && inBox(l, { south: -30, west: 179, north: -10, east: -179 }));
      expect(expected.length).to.be.greaterThan(0);
      expect(body.total).to.equal(expected.length);
      // The points of both halves, each once (the store joins each half's texts on its own).
      expect(body.items.map((p: { reference: string }) => p.reference).sort()).to.deep.equal(expected.map((l) => l.content.reference).sort());
      expect(body.capped).to.equal(false);
    });

    it('validates bbox: required, four numbers, ranges (400) and south <= north (422)', async () => {
      for (const bbox of ['', 'bbox=1,2,3', 'bbox=a,b,c,d', 'bbox=-91,0,10,10', 'bbox=0,0,10,181', 'bbox=1,2,3,4,5']) {
        const { status, body } = await app.get(`/annonces/map?${bbox}`, paidKey);
        expect(status, bbox).to.equal(400);
        expect(body.details[0].field).to.equal('bbox');
      }
      const { status, body } = await app.get('/annonces/map?bbox=50,0,40,10', paidKey);
      expect([status, body.code]).to.deep.equal([422, 'UNPROCESSABLE']);
    });
  });

  describe('GET /annonces/{source}/{reference}', () => {
    it('returns the listing, with the full price series for an offer that has it', async () => {
      const { status, body } = await app.get(`/annonces/${withSeries.content.source}/${withSeries.content.reference}`, paidKey);
      expect(status).to.equal(200);
      expect(body.annonce.reference).to.equal(withSeries.content.reference);
      expect(body.annonce.price_history).to.deep.equal({
        current: 280000,
        previous: 290000,
        changed_at: '2026-08-01T10:00:00.000Z',
        changes: 2,
        tracked_since: '2026-06-23T00:00:00.000Z',
        depth: 3,
        points: withSeries.price_points,
      });
    });

    it('without the capability: summary only, depth 2, no points', async () => {
      const { body } = await app.get(`/annonces/${withSeries.content.source}/${withSeries.content.reference}`, cheapKey);
      expect(body.annonce.price_history.depth).to.equal(2);
      expect(body.annonce.price_history).not.to.have.property('points');
    });

    it('points never appear on /annonces', async () => {
      const { body } = await app.get('/annonces?page_size=100&dedup=0', paidKey);
      for (const item of body.items) if (item.price_history) expect(item.price_history).not.to.have.property('points');
    });

    it('404 for unknown, inactive, or outside the access period; 400 for a bad path', async () => {
      const inactive = listings.find((l) => l.status !== 'active')!;
      expect((await app.get('/annonces/seloger/unknown-ref', paidKey)).status).to.equal(404);
      expect((await app.get(`/annonces/${inactive.content.source}/${inactive.content.reference}`, paidKey)).status).to.equal(404);
      const lateKey = await app.newKey('sur_mesure', { createdAt: '2030-01-01' });
      expect((await app.get(`/annonces/${withSeries.content.source}/${withSeries.content.reference}`, lateKey)).status).to.equal(404);
      const bad = await app.get('/annonces/Not_Valid!/x', paidKey);
      expect([bad.status, bad.body.details[0].field]).to.deep.equal([400, 'source']);
      const long = await app.get(`/annonces/seloger/${'r'.repeat(129)}`, paidKey);
      expect([long.status, long.body.details[0].field]).to.deep.equal([400, 'reference']);
      // A malformed escape stays as written (the router does not decode it): an unknown reference, not a 500.
      expect((await app.get('/annonces/seloger/%E0%A4%A', paidKey)).status).to.equal(404);
    });
  });

  describe('GET /ptz/zone', () => {
    const summary = readFileSync(new URL('../../../src/core/refdata/data/postal_code_zone_summary.csv', import.meta.url), 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(','));

    it('answers known codes from the data file (75001 Abis, a rural code C, a mixed code by population majority)', async () => {
      const expectations: [string, string][] = [
        ['75001', 'Abis'],
        ['23000', summary.find((r) => r[0] === '23000')![4]],
        ['91400', summary.find((r) => r[0] === '91400')![4]],
      ];
      const rural = summary.find((r) => r[6] === 'yes' && r[2] === 'C')!;
      expectations.push([rural[0], 'C']);
      for (const [cp, zone] of expectations) {
        const { status, body, headers } = await app.get(`/ptz/zone?cp=${cp}`, paidKey);
        expect(status).to.equal(200);
        expect(body).to.deep.equal({
          zone,
          codePostal: cp,
          source:
            "Arrêté du 5 septembre 2025 modifiant l'arrêté du 1er août 2014 pris en application de l'article D. 304-1 du code de la construction et de l'habitation",
        });
        expect(headers.get('cache-control')).to.match(/max-age=86400/);
      }
    });

    it('mixed postal codes follow the population-majority zone, not the most tense one', async () => {
      const mixed = summary.filter((r) => r[6] === 'no' && r[3] !== r[4]);
      expect(mixed.length).to.be.greaterThan(0);
      const { body } = await app.get(`/ptz/zone?cp=${mixed[0][0]}`, paidKey);
      expect(body.zone).to.equal(mixed[0][4]);
    });

    it('covers the 34 875 communes of the zoning through its 6 187 postal codes', () => {
      expect(summary.length).to.equal(6187);
      expect(summary.reduce((n, r) => n + Number(r[1]), 0)).to.be.at.least(34875);
      expect(app.service.deps.ptz.postalCodes).to.equal(6187);
    });

    it('400 unless exactly 5 digits; 404 with only `error` for an unknown code', async () => {
      for (const cp of ['', '7500', '750011', 'abcde', '75 01']) {
        const { status, body } = await app.get(`/ptz/zone?cp=${encodeURIComponent(cp)}`, paidKey);
        expect([status, body.details[0].field]).to.deep.equal([400, 'cp']);
      }
      const unknown = await app.get('/ptz/zone?cp=98000', paidKey);
      expect(unknown.status).to.equal(404);
      expect(Object.keys(unknown.body)).to.deep.equal(['error']);
    });
  });

  describe('GET /sources, /ping, /health', () => {
    it('/sources lists the configured sites for a paid offer, 402 below it', async () => {
      const { status, body } = await app.get('/sources', paidKey);
      expect(status).to.equal(200);
      expect(body.count).to.equal(body.items.length);
      expect(body.items[0]).to.have.keys('source', 'name', 'url', 'priority');
      const cheap = await app.get('/sources', await app.newKey('ville'));
      expect([cheap.status, cheap.body.code]).to.deep.equal([402, 'PAID_PLAN_REQUIRED']);
    });

    it('/ping returns the limits of the offer', async () => {
      const { status, body } = await app.get('/ping', cheapKey);
      expect(status).to.equal(200);
      expect(body).to.include({ ok: true, tier: 'ville', rate_limit_per_sec: 1, rate_limit_per_min: 60, items_per_day: 500 });
      expect(body.api_key_name).to.be.a('string');
      expect(Date.parse(body.server_time)).to.be.a('number');
    });

    it('/health needs no key', async () => {
      const { status, body } = await app.get('/health');
      expect(status).to.equal(200);
      expect(body.status).to.equal('ok');
      expect(body.checks.listings.ok).to.equal(true);
      // The store's kept count: every stored listing, visible or not.
      expect(body.checks.listings.listings).to.equal(listings.length);
    });
  });
});
