/**
 * The change feed and the withdrawn flow, driven by the real indexer: a mirror that follows both
 * while loads keep writing ends with exactly the active catalogue.
 */
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../support/app.js';
import { describeEngines } from '../../support/engines.js';
import { rawRecord, writeNdjson } from '../../support/raw.js';
import { runLoad } from '../../../indexer/load.js';
import { loadSites } from '../../../src/core/model/sites.js';
import { loadCommunes } from '../../../src/core/refdata/communes.js';

describeEngines('GET /annonces/feed and /annonces/retirees', function (engine) {
  this.timeout(60_000);
  let app: TestApp;
  let key: string;
  const sites = loadSites();
  const communes = loadCommunes();
  let loadClock = Date.parse('2026-11-10T00:00:00Z');

  async function load(records: unknown[]) {
    loadClock += 1000;
    return runLoad({ files: [writeNdjson(records)], store: app.service.listingStore, sites, communes, now: () => loadClock });
  }

  beforeEach(async () => {
    app = await startTestApp({ engine });
    app.clock.now = Date.parse('2026-11-20T00:00:00Z');
    key = await app.newKey('sur_mesure');
  });
  afterEach(async () => {
    await app.close();
  });

  async function follow(cursor: string | null, pageSize: number): Promise<{ items: any[]; cursor: string }> {
    const items: any[] = [];
    for (;;) {
      const { status, body } = await app.get(`/annonces/feed?page_size=${pageSize}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, key);
      expect(status, JSON.stringify(body)).to.equal(200);
      expect(body.next_cursor).to.be.a('string');
      expect(body.count).to.equal(body.items.length);
      items.push(...body.items);
      cursor = body.next_cursor;
      if (body.items.length === 0) {
        expect(body.has_more).to.equal(false);
        return { items, cursor: cursor! };
      }
    }
  }

  /** `/annonces?dedup=0` whole: what a mirror of the feed and the withdrawn flow must hold. */
  async function activeCatalogue(): Promise<Map<string, any>> {
    const catalogue = new Map<string, any>();
    let next: string | null = null;
    for (;;) {
      const { body } = await app.get(`/annonces?dedup=0&page_size=100${next ? `&cursor=${encodeURIComponent(next)}` : ''}`, key);
      for (const item of body.items) catalogue.set(`${item.source}:${item.reference}`, item);
      if (!body.has_more) return catalogue;
      next = body.next_cursor;
    }
  }

  it('a writer whose clock is 10 minutes behind the previous one loses no change for a mirror polling throughout', async () => {
    const mirror = new Map<string, any>();
    let feedCursor: string | null = null;
    let withdrawnCursor: string | null = null;
    const poll = async () => {
      const step = await follow(feedCursor, 7);
      for (const item of step.items) mirror.set(`${item.source}:${item.reference}`, item);
      feedCursor = step.cursor;
      for (;;) {
        const { body } = await app.get(`/annonces/retirees?page_size=7${withdrawnCursor ? `&cursor=${encodeURIComponent(withdrawnCursor)}` : ''}`, key);
        for (const item of body.items) mirror.delete(`${item.source}:${item.reference}`);
        withdrawnCursor = body.next_cursor;
        if (!body.has_more) return;
      }
    };
    const loadWith = (records: unknown[], now: () => number) =>
      runLoad({ files: [writeNdjson(records)], store: app.service.listingStore, sites, communes, now });
    app.service.deps.feedSettleMs = 120_000;

    // A writer on time; the mirror's cursors pass its changes.
    const onTime = Date.parse('2026-11-20T12:00:00Z');
    await loadWith(
      Array.from({ length: 30 }, (_, i) => rawRecord(i)),
      () => onTime,
    );
    app.clock.now = onTime + 5 * 60_000;
    await poll();
    expect(mirror.size).to.equal(30);

    // Another indexer host, its clock 10 minutes behind the API's, writes new listings, new prices
    // and withdrawals while the mirror keeps polling.
    const behind = () => app.clock.now - 10 * 60_000;
    const writing = loadWith(
      [
        ...Array.from({ length: 12 }, (_, i) => rawRecord(30 + i, { collected_at: '2026-11-02T10:00:00Z' })),
        ...Array.from({ length: 8 }, (_, i) => rawRecord(i, { collected_at: '2026-11-02T10:00:00Z', price: `${700 + i} 000 €` })),
        rawRecord(10, { collected_at: '2026-11-02T10:00:00Z', status: 'vendue' }),
        rawRecord(11, { collected_at: '2026-11-02T10:00:00Z', status: 'retirée' }),
      ],
      behind,
    );
    let written = false;
    void writing.then(() => {
      written = true;
    });
    while (!written) {
      await poll();
      app.clock.now += 1000;
    }
    await writing;
    app.clock.now += 5 * 60_000;
    await poll();

    const catalogue = await activeCatalogue();
    expect(catalogue.size).to.equal(30 + 12 - 2);
    expect([...mirror.keys()].sort()).to.deep.equal([...catalogue.keys()].sort());
    for (const [id, item] of catalogue) expect(mirror.get(id).price, id).to.equal(item.price);
  });

  for (const pageSize of [1, 7, 100]) {
    it(`a mirror following feed + withdrawn flow while the indexer writes equals /annonces?dedup=0 plus the listings without photo (page_size ${pageSize})`, async () => {
      const mirror = new Map<string, any>();
      const apply = (items: any[]) => {
        for (const item of items) mirror.set(`${item.source}:${item.reference}`, item);
      };
      let withdrawnCursor: string | null = null;
      const applyWithdrawn = async () => {
        for (;;) {
          const { body } = await app.get(
            `/annonces/retirees?page_size=${pageSize}${withdrawnCursor ? `&cursor=${encodeURIComponent(withdrawnCursor)}` : ''}`,
            key,
          );
          for (const item of body.items) mirror.delete(`${item.source}:${item.reference}`);
          withdrawnCursor = body.next_cursor;
          if (!body.has_more) return;
        }
      };

      // One listing without a photo: search leaves it out, the feed delivers it.
      await load([...Array.from({ length: 40 }, (_, i) => rawRecord(i)), rawRecord(90, { images: [] })]);
      let step = await follow(null, pageSize);
      apply(step.items);
      // New listings, changed prices, and listings leaving the market, in later passes.
      await load([
        ...Array.from({ length: 15 }, (_, i) => rawRecord(40 + i, { collected_at: '2026-11-02T10:00:00Z' })),
        ...Array.from({ length: 10 }, (_, i) => rawRecord(i, { collected_at: '2026-11-02T10:00:00Z', price: `${500 + i} 000 €` })),
        rawRecord(20, { collected_at: '2026-11-02T10:00:00Z', status: 'vendue' }),
        rawRecord(21, { collected_at: '2026-11-02T10:00:00Z', status: 'retirée' }),
      ]);
      step = await follow(step.cursor, pageSize);
      apply(step.items);
      await applyWithdrawn();
      await load([rawRecord(22, { collected_at: '2026-11-03T10:00:00Z', status: 'archivée' }), rawRecord(21, { collected_at: '2026-11-03T10:00:00Z' })]);
      step = await follow(step.cursor, pageSize);
      apply(step.items);
      await applyWithdrawn();

      // The feed has the listing that came back (21) after its withdrawal, so the mirror has it again.
      const catalogue = await activeCatalogue();
      const withoutPhoto = [...mirror.values()].filter((item) => item.images.length === 0).map((item) => item.reference);
      expect(withoutPhoto).to.deep.equal(['R90']);
      expect([...mirror.keys()].filter((id) => !id.endsWith(':R90')).sort()).to.deep.equal([...catalogue.keys()].sort());
      for (const [id, item] of catalogue) expect(mirror.get(id).price, id).to.equal(item.price);
      expect(catalogue.size).to.equal(55 - 2);
    });
  }

  it('feed order is (changed_at, change_seq) and a re-analysed listing reappears with its new data', async () => {
    await load(Array.from({ length: 5 }, (_, i) => rawRecord(i)));
    const first = await follow(null, 100);
    expect(first.items.map((a) => a.reference)).to.deep.equal(['R0', 'R1', 'R2', 'R3', 'R4']);
    await load([rawRecord(2, { collected_at: '2026-11-05T00:00:00Z', title: 'Appartement rénové' })]);
    const second = await follow(first.cursor, 100);
    expect(second.items.map((a) => [a.reference, a.title])).to.deep.equal([['R2', 'Appartement rénové']]);
  });

  it('an up-to-date feed answers empty items, has_more false and the same position', async () => {
    await load([rawRecord(1)]);
    const first = await follow(null, 10);
    const again = await app.get(`/annonces/feed?cursor=${encodeURIComponent(first.cursor)}`, key);
    expect(again.body).to.deep.equal({ items: [], count: 0, has_more: false, next_cursor: first.cursor });
  });

  it('listings changed less than the settle delay ago are held back', async () => {
    await load([rawRecord(1)]);
    app.service.deps.feedSettleMs = 120_000;
    app.clock.now = loadClock + 60_000;
    expect((await app.get('/annonces/feed', key)).body.count).to.equal(0);
    app.clock.now = loadClock + 121_000;
    expect((await app.get('/annonces/feed', key)).body.count).to.equal(1);
  });

  it('the feed delivers site listings without photos too, and narrows with filters', async () => {
    await load([rawRecord(1, { images: [] }), rawRecord(2), rawRecord(3, { type: 'maison' })]);
    const all = (await app.get('/annonces/feed', key)).body;
    expect(all.count).to.equal(3);
    const maisons = (await app.get('/annonces/feed?type=maison', key)).body;
    expect(maisons.items.map((a: any) => a.reference)).to.deep.equal(['R3']);
  });

  // Kept on purpose (docs/api.md "Where the API departs from its specification"): every listing that
  // leaves the results is served, whatever the reason, so a mirror learns each one that left.
  it('withdrawn items carry withdrawn_at and reason, oldest first, for every way of leaving the market', async () => {
    await load([rawRecord(1), rawRecord(2), rawRecord(3), rawRecord(4), rawRecord(5)]);
    await load([rawRecord(2, { collected_at: '2026-11-02T00:00:00Z', status: 'Sous compromis' })]);
    await load([rawRecord(1, { collected_at: '2026-11-03T00:00:00Z', status: 'vendu' })]);
    await load([rawRecord(3, { collected_at: '2026-11-04T00:00:00Z', status: 'archivée' })]);
    await load([rawRecord(4, { collected_at: '2026-11-05T00:00:00Z', status: 'retirée' })]);
    const { body } = await app.get('/annonces/retirees', key);
    expect(body.items.map((a: any) => [a.reference, a.reason, a.withdrawn_at])).to.deep.equal([
      ['R2', 'sous_compromis', '2026-11-02T00:00:00.000Z'],
      ['R1', 'vendue', '2026-11-03T00:00:00.000Z'],
      ['R3', 'archivee', '2026-11-04T00:00:00.000Z'],
      ['R4', 'retiree', '2026-11-05T00:00:00.000Z'],
    ]);
    expect(body).to.include.keys('items', 'count', 'has_more', 'next_cursor');
  });

  // docs/api.md "Where the API departs from its specification": the specification names the field
  // without a colour rule, so it is reserved and null, whatever a collector sends.
  it('price_per_m2_color is reserved: null on search, map and detail even when the record names a colour', async () => {
    await load([rawRecord(1, { latitude: 45.75, longitude: 4.85, price_per_m2_color: '#ff0000' })]);
    const search = (await app.get('/annonces', key)).body.items[0];
    const point = (await app.get('/annonces/map?bbox=45,4,46,5', key)).body.items[0];
    const detail = (await app.get(`/annonces/${search.source}/${search.reference}`, key)).body.annonce;
    expect(search.price_per_m2).to.be.a('number');
    expect([search.price_per_m2_color, point.price_per_m2_color, detail.price_per_m2_color]).to.deep.equal([null, null, null]);
  });

  it('a status change moves a listing out of search and map at once, and back when active again', async () => {
    await load([rawRecord(1, { latitude: 45.75, longitude: 4.85 })]);
    const search = async () => (await app.get('/annonces', key)).body.items.length;
    const map = async () => (await app.get('/annonces/map?bbox=45,4,46,5', key)).body.total;
    expect([await search(), await map()]).to.deep.equal([1, 1]);
    await load([rawRecord(1, { latitude: 45.75, longitude: 4.85, collected_at: '2026-11-02T00:00:00Z', status: 'archivée' })]);
    expect([await search(), await map()]).to.deep.equal([0, 0]);
    await load([rawRecord(1, { latitude: 45.75, longitude: 4.85, collected_at: '2026-11-03T00:00:00Z', status: 'active' })]);
    expect([await search(), await map()]).to.deep.equal([1, 1]);
  });
});
