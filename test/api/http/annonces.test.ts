/** GET /annonces over HTTP: every parameter, pagination, cursors, authentication and error cases. */
import { expect } from 'chai';
import fc from 'fast-check';
import { startTestApp, type TestApp } from '../../support/app.js';
import { describeEngines } from '../../support/engines.js';
import { makeListings } from '../../support/fixtures.js';
import { expectedSearch } from '../../support/oracle.js';
import type { ListingFilter, Scope, SortName } from '../../../src/core/query/query.js';
import { ANNONCE_FIELDS } from '../../../src/core/model/annonce.js';
import { setKeyStatus } from '../../../src/admin/commands.js';
import path from 'node:path';
import { SqliteAccessStore } from '../../../src/adapters/sqlite-access/access-store.js';

describeEngines('GET /annonces', function (engine) {
  const listings = makeListings({ count: 400, seed: 3 });
  const ALL: Scope = { enteredFrom: 0, eligibleSites: null };
  let app: TestApp;
  let key: string;

  before(async () => {
    app = await startTestApp({ listings, engine });
    key = await app.newKey('sur_mesure');
  });
  after(async () => {
    await app.close();
  });

  async function walk(query: string, usePages = false): Promise<string[]> {
    const ids: string[] = [];
    let next: string | null = null;
    for (let page = 1; page < 200; page++) {
      const url = usePages ? `/annonces?${query}&page=${page}` : `/annonces?${query}${next ? `&cursor=${encodeURIComponent(next)}` : ''}`;
      const { status, body } = await app.get(url, key);
      expect(status, JSON.stringify(body)).to.equal(200);
      ids.push(...body.items.map((a: { source: string; reference: string }) => `${a.source}:${a.reference}`));
      if (!body.has_more) return ids;
      next = body.next_cursor;
    }
    throw new Error('no end');
  }

  const cases: [string, ListingFilter, SortName][] = [
    ['dept=75', { department: '75' }, 'recent'],
    ['type=Maison&transaction=vente&sort=price_asc', { types: ['maison'], transaction: 'vente' }, 'price_asc'],
    // A transaction drives the plan in the price sorts without a place (SQLite's ix_main_tx_*), not elsewhere.
    ['transaction=location&sort=price_desc', { transaction: 'location' }, 'price_desc'],
    ['type=appartement,maison&transaction=vente&sort=pricem2_asc', { types: ['appartement', 'maison'], transaction: 'vente' }, 'pricem2_asc'],
    ['transaction=vente&sort=surface_desc', { transaction: 'vente' }, 'surface_desc'],
    ['dept=75&transaction=vente&sort=price_asc', { department: '75', transaction: 'vente' }, 'price_asc'],
    [
      'region=%C3%8Ele-de-France&type=appartement&transaction=vente&sort=pricem2_asc',
      { region: 'ile de france', types: ['appartement'], transaction: 'vente' },
      'pricem2_asc',
    ],
    ['ville=SAINT-ETIENNE,lyon&sort=price_desc', { cities: ['saint etienne', 'lyon'] }, 'price_desc'],
    ['cp=69003', { postalCode: '69003' }, 'recent'],
    ['region=%C3%8Ele-de-France', { region: 'ile de france' }, 'recent'],
    ['prix_min=200000&prix_max=700000&sort=surface_desc', { priceMin: 200000, priceMax: 700000 }, 'surface_desc'],
    ['prix_m2_min=1000&prix_m2_max=9000&sort=pricem2_asc', { pricePerM2Min: 1000, pricePerM2Max: 9000 }, 'pricem2_asc'],
    ['surface_min=30,5&surface_max=150', { surfaceMin: 30.5, surfaceMax: 150 }, 'recent'],
    ['pieces_min=2&chambres_min=1', { roomsMin: 2, bedroomsMin: 1 }, 'recent'],
    ['annee_min=1900&annee_max=1990', { yearMin: 1900, yearMax: 1990 }, 'recent'],
    ['dpe=A&dpe=b&ges=C,D', { dpe: ['A', 'B'], ges: ['C', 'D'] }, 'recent'],
    ['q=Chemin%C3%A9e', { words: ['cheminee'] }, 'recent'],
    ['q=lumineux%20calme&dept=69', { words: ['lumineux', 'calme'], department: '69' }, 'recent'],
    ['updated_since=2026-09-02T00:00:00Z&sort=recent', { updatedSince: Date.parse('2026-09-02T00:00:00Z') }, 'recent'],
    ['created_since=2026-08-30', { createdSince: Date.parse('2026-08-30T00:00:00Z') }, 'recent'],
    ['source=scraped', {}, 'recent'],
  ];

  for (const [query, filter, sort] of cases) {
    it(`${query}: exactly the matching listings, each once, by cursor and by page`, async () => {
      const expected = expectedSearch(listings, filter, ALL, true, sort);
      expect(await walk(`${query}&page_size=17`)).to.deep.equal(expected);
      expect(await walk(`${query}&page_size=17`, true)).to.deep.equal(expected);
    });
  }

  it('dedup=0 returns every duplicate', async () => {
    expect(await walk('page_size=100&dedup=0')).to.deep.equal(expectedSearch(listings, {}, ALL, false, 'recent'));
  });

  it('items carry every Annonce field in the documented order, and no internal field', async () => {
    const { body } = await app.get('/annonces?page_size=5', key);
    expect(body).to.include.keys('page', 'page_size', 'has_more', 'next_cursor', 'items');
    expect(body.page).to.equal(1);
    for (const item of body.items) {
      expect(Object.keys(item).slice(0, ANNONCE_FIELDS.length)).to.deep.equal(ANNONCE_FIELDS);
      expect(item.seller_contact).to.equal(null);
      expect(item).not.to.have.any.keys('status', 'catalogue_entered_at', 'change_seq', 'group_sites_ahead', 'price_points');
      expect(item.images.length).to.be.greaterThan(0);
    }
  });

  it('cursor takes precedence over page, and pages count on', async () => {
    const first = await app.get('/annonces?page_size=10', key);
    const second = await app.get(`/annonces?page_size=10&page=7&cursor=${encodeURIComponent(first.body.next_cursor)}`, key);
    const byPage = await app.get('/annonces?page_size=10&page=2', key);
    expect(second.body.items).to.deep.equal(byPage.body.items);
    expect(second.body.page).to.equal(2);
  });

  it('a forged, corrupt or other-sort cursor is a 400 on cursor', async () => {
    const first = await app.get('/annonces?page_size=10', key);
    const cursor: string = first.body.next_cursor;
    const [payload, signature] = cursor.split('.');
    const forged = `${Buffer.from(JSON.stringify({ k: 'search:recent', p: [0, 'zzz', 2] })).toString('base64url')}.${signature}`;
    for (const bad of [forged, `${payload}.AAAA`, 'garbage', `${cursor}.x`]) {
      const { status, body } = await app.get(`/annonces?cursor=${encodeURIComponent(bad)}`, key);
      expect(status).to.equal(400);
      expect(body.details[0].field).to.equal('cursor');
    }
    const otherSort = await app.get(`/annonces?sort=price_asc&cursor=${encodeURIComponent(cursor)}`, key);
    expect(otherSort.status).to.equal(400);
  });

  describe('authentication', () => {
    it('401 API_KEY_MISSING without a key', async () => {
      const { status, body } = await app.get('/annonces');
      expect([status, body.code]).to.deep.equal([401, 'API_KEY_MISSING']);
    });
    it('401 API_KEY_INVALID for an unknown key', async () => {
      const { status, body } = await app.get('/annonces', 'ak_nope');
      expect([status, body.code]).to.deep.equal([401, 'API_KEY_INVALID']);
    });
    it('401 API_KEY_INVALID for a revoked or a blocked key', async () => {
      for (const status of ['revoked', 'blocked'] as const) {
        const doomed = await app.newKey('sur_mesure');
        expect((await app.get('/annonces?page_size=1', doomed)).status).to.equal(200);
        await setKeyStatus(app.service.deps.access, doomed, status);
        const { status: http, body } = await app.get('/annonces?page_size=1', doomed);
        expect([http, body.code]).to.deep.equal([401, 'API_KEY_INVALID']);
      }
    });
    it('a key revoked or an offer changed by the admin commands (another connection) applies at the next request', async function () {
      if (app.service.deps.access.backend !== 'sqlite') this.skip();
      const account = `admin-${process.pid}`;
      const doomed = await app.newKey('national', { account });
      const first = await app.get('/annonces?page_size=1', doomed);
      expect([first.status, first.headers.get('x-ratelimit-limit')]).to.deep.equal([200, String(app.service.deps.offers.get('national')!.perMinute)]);
      // What `npm run admin` does: its own connection to the access file.
      const admin = SqliteAccessStore.open(path.join(app.dataDir, 'access.sqlite'));
      try {
        const existing = (await admin.getAccount(account))!;
        await admin.ensureAccount({ ...existing, offer: 'plateforme' });
        const changed = await app.get('/annonces?page_size=1', doomed);
        expect([changed.status, changed.headers.get('x-ratelimit-limit')]).to.deep.equal([200, String(app.service.deps.offers.get('plateforme')!.perMinute)]);
        await setKeyStatus(admin, doomed, 'revoked');
        const { status, body } = await app.get('/annonces?page_size=1', doomed);
        expect([status, body.code]).to.deep.equal([401, 'API_KEY_INVALID']);
      } finally {
        await admin.close();
      }
    });
    it('accepts Authorization: Bearer', async () => {
      const { status } = await app.get('/annonces?page_size=1', null, { Authorization: `Bearer ${key}` });
      expect(status).to.equal(200);
    });
    it('X-Annonces-From is on every answer of an authenticated caller', async () => {
      const { headers } = await app.get('/annonces?page_size=1', key);
      expect(headers.get('x-annonces-from')).to.equal('2020-01-01');
    });
  });

  describe('errors', () => {
    it('400 names every faulty field', async () => {
      const { status, body } = await app.get('/annonces?page_size=0&page=1001&dpe=H&sort=cheap&transaction=achat&annee_min=1600', key);
      expect(status).to.equal(400);
      expect(body.code).to.equal('BAD_REQUEST');
      expect(body.details.map((d: { field: string }) => d.field).sort()).to.deep.equal(['annee_min', 'dpe', 'page', 'page_size', 'sort', 'transaction']);
    });
    it('400 for too many cities, a too long q, a repeated single parameter', async () => {
      const nine = Array.from({ length: 9 }, (_, i) => `v${i}`).join(',');
      for (const [query, field] of [
        [`ville=${nine}`, 'ville'],
        [`q=${'a'.repeat(121)}`, 'q'],
        ['dept=75&dept=69', 'dept'],
        [`cursor=${'x'.repeat(501)}`, 'cursor'],
        ['updated_since=yesterday', 'updated_since'],
      ]) {
        const { status, body } = await app.get(`/annonces?${query}`, key);
        expect(status, query).to.equal(400);
        expect(body.details[0].field).to.equal(field);
      }
    });
    it('422 when a min is above its max', async () => {
      const { status, body } = await app.get('/annonces?prix_min=500&prix_max=100&surface_min=90&surface_max=10', key);
      expect(status).to.equal(422);
      expect(body.details.map((d: { field: string }) => d.field)).to.deep.equal(['prix_min', 'surface_min']);
    });
    it('404 NOT_FOUND for an unknown route under the base path', async () => {
      const { status, body } = await app.get('/nothing-here', key);
      expect([status, body.code]).to.deep.equal([404, 'NOT_FOUND']);
    });
    it('never a 500, whatever the query string', async () => {
      const names = [
        'q',
        'type',
        'ville',
        'cp',
        'dept',
        'prix_min',
        'surface_max',
        'dpe',
        'sort',
        'page',
        'page_size',
        'cursor',
        'updated_since',
        'dedup',
        'sources',
        'annee_max',
      ];
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.tuple(fc.constantFrom(...names), fc.oneof(fc.string({ maxLength: 30 }), fc.integer().map(String), fc.constant('%ZZ'), fc.constant('%C3%28'))),
            { maxLength: 5 },
          ),
          async (pairs) => {
            const query = pairs.map(([k, v]) => `${k}=${v.startsWith('%') ? v : encodeURIComponent(v)}`).join('&');
            const { status } = await app.get(`/annonces?${query}`, key);
            expect(status, query).to.be.oneOf([200, 400, 422]);
          },
        ),
        { numRuns: 150 },
      );
    });
    it('a 10 000-character q is a 400, not a 500; a URL over the 16 KiB header limit is a 431', async () => {
      expect((await app.get(`/annonces?q=${'a'.repeat(10000)}`, key)).status).to.equal(400);
      expect((await app.get(`/annonces?q=${'é'.repeat(10000)}`, key)).status).to.equal(431);
    });
  });
});
