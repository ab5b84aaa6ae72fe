/**
 * Over 300 lines on purpose: the one conformance suite every engine runs, kept whole so no engine skips a part.
 * The conformance suite of the two listing ports: the same behaviour checks for every backend
 * (SQLite always, Elasticsearch when reachable), in one part per port (ListingReader, ListingIndex)
 * on one store holding both. Each check compares the store's answer with the brute-force oracle.
 */
import { expect } from 'chai';
import type { ListingStore } from '../../src/core/ports/listing-store.js';
import type { StoredListing } from '../../src/core/model/stored.js';
import type { ListingFilter, Scope, SearchQuery, SortName, SortPosition } from '../../src/core/query/query.js';
import { SORTS } from '../../src/core/query/query.js';
import { WriterBusyError } from '../../src/core/ports/writer-lock.js';
import { blockKeyOf } from '../../src/core/dedup/block-key.js';
import { makeListings, FIXTURE_SITES } from '../support/fixtures.js';
import { expectedSearch, inBox, matchesFilter } from '../support/oracle.js';
import { annonceJson, presentAnnonce, presentMapPoint } from '../../src/core/model/present.js';
import { mapPointsOf } from '../support/map-points.js';
import { comparableCandidate, expectedCandidate } from '../support/candidates.js';

const ALL: Scope = { enteredFrom: 0, eligibleSites: null };

export function runListingStoreConformance(name: string, open: () => Promise<ListingStore | null>): void {
  describe(`ListingStore conformance: ${name}`, function () {
    let store: ListingStore;
    const listings: StoredListing[] = makeListings({ count: 600, seed: 11 });

    before(async function () {
      const opened = await open();
      if (!opened) return this.skip();
      store = opened;
      await store.upsertMany(listings);
    });
    after(async () => {
      await store?.close();
    });

    async function searchAll(base: Omit<SearchQuery, 'page' | 'after' | 'pageSize'>, pageSize = 37): Promise<string[]> {
      const ids: string[] = [];
      let after: SearchQuery['after'] = null;
      for (let guard = 0; guard < 1000; guard++) {
        const page = await store.search({ ...base, pageSize, page: 1, after });
        ids.push(...page.items.map((l) => l.id));
        if (!page.hasMore) return ids;
        after = page.last;
      }
      throw new Error('pagination did not end');
    }

    const filters: [string, ListingFilter][] = [
      ['no filter', {}],
      ['department', { department: '75' }],
      ['department 2A', { department: '2A' }],
      ['type + transaction', { types: ['maison'], transaction: 'vente' }],
      ['two cities, folded', { cities: ['saint etienne', 'lyon'] }],
      ['postal code', { postalCode: '69003' }],
      ['region folded', { region: 'auvergne rhone alpes' }],
      ['price range', { priceMin: 200_000, priceMax: 600_000 }],
      ['price per m2 range', { pricePerM2Min: 1000, pricePerM2Max: 8000 }],
      ['surface range', { surfaceMin: 40.5, surfaceMax: 120 }],
      ['rooms and bedrooms', { roomsMin: 3, bedroomsMin: 2 }],
      ['years exclude unknown', { yearMin: 1900, yearMax: 2000 }],
      ['dpe and ges lists', { dpe: ['A', 'B', 'C'], ges: ['D', 'E'] }],
      ['updated since', { updatedSince: Date.parse('2026-09-02T00:00:00Z') }],
      ['created since', { createdSince: Date.parse('2026-08-30T00:00:00Z') }],
      ['relistings only', { relisted: true }],
      ['no relisting, one department', { relisted: false, department: '69' }],
      ['one common word', { words: ['lumineux'] }],
      ['two words, all must match', { words: ['balcon', 'calme'] }],
      ['accent-folded word', { words: ['cheminee'] }],
      ['word + department', { words: ['lumineux'], department: '69' }],
      ['word matching nothing', { words: ['introuvable'] }],
    ];

    describe('ListingReader: what the API reads', () => {
      for (const [label, filter] of filters) {
        it(`filter "${label}": every listing exactly once, in sort order`, async () => {
          const expected = expectedSearch(listings, filter, ALL, true, 'recent');
          expect(await searchAll({ filter, scope: ALL, grouped: true, sort: 'recent' })).to.deep.equal(expected);
        });
      }

      for (const sort of SORTS) {
        it(`sort ${sort}: keyset pages give the oracle order (ties and unknown values last)`, async () => {
          const filter: ListingFilter = { transaction: 'vente' };
          const expected = expectedSearch(listings, filter, ALL, true, sort as SortName);
          expect(await searchAll({ filter, scope: ALL, grouped: true, sort }, 23)).to.deep.equal(expected);
        });
      }

      it('page mode gives the same pages as the oracle', async () => {
        const expected = expectedSearch(listings, {}, ALL, true, 'price_asc');
        for (const page of [1, 2, 5]) {
          const result = await store.search({ filter: {}, scope: ALL, grouped: true, sort: 'price_asc', pageSize: 20, page, after: null });
          expect(result.items.map((l) => l.id)).to.deep.equal(expected.slice((page - 1) * 20, page * 20));
          expect(result.hasMore).to.equal(expected.length > page * 20);
        }
      });

      it('dedup off returns every visible site listing', async () => {
        const expected = expectedSearch(listings, {}, ALL, false, 'recent');
        const grouped = expectedSearch(listings, {}, ALL, true, 'recent');
        expect(expected.length).to.be.greaterThan(grouped.length);
        expect(await searchAll({ filter: {}, scope: ALL, grouped: false, sort: 'recent' })).to.deep.equal(expected);
      });

      it('site eligibility: the best-ranked eligible site of each group', async () => {
        for (const eligibleSites of [['leboncoin', 'pap'], FIXTURE_SITES.filter((s) => s !== 'seloger'), ['notaires']]) {
          const scope: Scope = { enteredFrom: 0, eligibleSites };
          for (const grouped of [true, false]) {
            const expected = expectedSearch(listings, {}, scope, grouped, 'recent');
            expect(await searchAll({ filter: {}, scope, grouped, sort: 'recent' })).to.deep.equal(expected);
          }
        }
      });

      it('access period hides listings that entered the catalogue before it', async () => {
        const scope: Scope = { enteredFrom: Date.parse('2026-08-20T00:00:00Z'), eligibleSites: null };
        const expected = expectedSearch(listings, {}, scope, true, 'recent');
        expect(expected.length).to.be.lessThan(expectedSearch(listings, {}, ALL, true, 'recent').length);
        expect(await searchAll({ filter: {}, scope, grouped: true, sort: 'recent' })).to.deep.equal(expected);
      });

      it('map: exact total, at most the limit, only points inside the box', async () => {
        const box = { south: 45, west: 4, north: 46, east: 5 };
        const expected = listings.filter((l) => inBox(l, box) && l.status === 'active' && l.has_photos && l.group_sites_ahead.length === 0);
        const result = await store.map({ filter: {}, scope: ALL, grouped: true, bbox: box, limit: 10 });
        expect(result.total).to.equal(expected.length);
        // The texts are what the route sends: `count` points, each the point of the listing as stored.
        const points = mapPointsOf(result);
        expect(points).to.have.length(Math.min(10, expected.length)).and.to.have.length(result.count);
        const byId = new Map(listings.map((l) => [l.id, l]));
        for (const point of points) {
          const listing = byId.get(`${point.source}:${point.reference}`)!;
          expect(inBox(listing, box)).to.equal(true);
          expect(point, listing.id).to.deep.equal(presentMapPoint(listing));
        }
      });

      it('map: a box across the antimeridian (west > east)', async () => {
        const box = { south: -30, west: 179, north: -10, east: -179 };
        const expected = listings.filter((l) => inBox(l, box) && l.status === 'active' && l.has_photos && l.group_sites_ahead.length === 0);
        expect(expected.length).to.be.greaterThan(0);
        const result = await store.map({ filter: { transaction: 'vente' }, scope: ALL, grouped: true, bbox: box, limit: 2000 });
        const expectedIds = expected
          .filter((l) => matchesFilter(l, { transaction: 'vente' }))
          .map((l) => l.id)
          .sort();
        expect(
          mapPointsOf(result)
            .map((p) => `${p.source}:${p.reference}`)
            .sort(),
        ).to.deep.equal(expectedIds);
        expect(result.total).to.equal(expectedIds.length);
      });

      it('feed: active site listings by (changed_at, change_seq), up to changedUntil, resumable', async () => {
        const until = Date.parse('2026-09-01T00:05:00Z');
        const expected = listings
          .filter((l) => l.status === 'active' && l.changed_at <= until)
          .sort((a, b) => a.changed_at - b.changed_at || a.change_seq - b.change_seq)
          .map((l) => l.id);
        const seen: string[] = [];
        let after: (string | number)[] | null = null;
        for (;;) {
          const page = await store.feed({ filter: {}, scope: ALL, changedUntil: until, pageSize: 40, after });
          seen.push(...page.items.map((l) => l.id));
          if (!page.hasMore) break;
          after = page.last;
        }
        expect(seen).to.deep.equal(expected);
      });

      it('withdrawn: listings that left the market, in the order of the writes that moved them out', async () => {
        const until = Date.parse('2026-09-01T00:08:00Z');
        const expected = listings
          .filter((l) => l.status !== 'active' && l.changed_at <= until)
          .sort((a, b) => a.changed_at - b.changed_at || a.change_seq - b.change_seq)
          .map((l) => l.id);
        const seen: string[] = [];
        let after: (string | number)[] | null = null;
        for (;;) {
          const page = await store.withdrawn({ scope: ALL, changedUntil: until, pageSize: 7, after });
          seen.push(...page.items.map((l) => l.id));
          if (!page.hasMore) break;
          after = page.last;
        }
        expect(seen).to.deep.equal(expected);
      });

      it('result pages present each listing exactly as its stored state (precomputed texts included)', async () => {
        const until = Date.now() + 86_400_000;
        const pages = [
          (await store.search({ filter: {}, scope: ALL, grouped: false, sort: 'price_desc', pageSize: 60, page: 1, after: null })).items,
          (await store.feed({ filter: {}, scope: ALL, changedUntil: until, pageSize: 60, after: null })).items,
          (await store.withdrawn({ scope: ALL, changedUntil: until, pageSize: 60, after: null })).items,
        ];
        const stored = new Map(listings.map((l) => [l.id, l]));
        for (const item of pages.flat()) {
          expect(JSON.parse(String(annonceJson(item))), item.id).to.deep.equal(presentAnnonce(stored.get(item.id)!));
        }
        expect(pages.map((p) => p.length).every((n) => n > 0)).to.equal(true);
      });
    });

    describe('ListingReader: the detail as presented', () => {
      it('getPresented: the Annonce text of presentAnnonce, byte for byte, with or without the price series', async () => {
        const series = [
          { at: '2026-06-01T00:00:00.000Z', price: 120 },
          { at: '2026-07-01T00:00:00.000Z', price: 100 },
          { at: '2026-08-01T00:00:00.000Z', price: 90 },
        ];
        const withSeries: StoredListing = { ...listings[5], price_points: series };
        const withdrawn = listings.find((l) => l.status !== 'active')!;
        await store.upsertMany([withSeries]);
        try {
          for (const listing of [withSeries, listings[6], listings[7], withdrawn]) {
            for (const withPricePoints of [false, true]) {
              const presented = await store.getPresented(listing.id, { withPricePoints });
              expect(presented, listing.id).to.not.equal(null);
              expect({ ...presented!, annonce: String(presented!.annonce) }, `${listing.id} ${withPricePoints}`).to.deep.equal({
                id: listing.id,
                status: listing.status,
                catalogue_entered_at: listing.catalogue_entered_at,
                annonce: JSON.stringify(presentAnnonce(listing, { withPricePoints })),
              });
            }
          }
          expect(await store.getPresented('nope:nothing', { withPricePoints: true })).to.equal(null);
        } finally {
          await store.upsertMany([listings[5]]);
        }
      });
    });

    describe('ListingIndex: what the indexer writes and looks up', () => {
      it('get and getMany return the stored state, including the price series', async () => {
        const withPoints = {
          ...listings[3],
          price_points: [
            { at: '2026-07-01T00:00:00.000Z', price: 100 },
            { at: '2026-08-01T00:00:00.000Z', price: 90 },
          ],
        };
        await store.upsertMany([withPoints]);
        expect(await store.get(withPoints.id)).to.deep.equal(withPoints);
        expect(await store.get('nope:nothing')).to.equal(null);
        const many = await store.getMany([listings[0].id, listings[1].id, 'nope:nothing']);
        expect([...many.keys()].sort()).to.deep.equal([listings[0].id, listings[1].id].sort());
        await store.upsertMany([listings[3]]);
      });

      it('an update replaces the searchable state (status, text, price)', async () => {
        const target = listings.find((l) => l.status === 'active' && l.has_photos && l.group_sites_ahead.length === 0)!;
        const changed: StoredListing = { ...target, content: { ...target.content, title: 'Orangerie rénovée', price: 123_456 } };
        await store.upsertMany([changed]);
        const found = await store.search({ filter: { words: ['orangerie'] }, scope: ALL, grouped: true, sort: 'recent', pageSize: 10, page: 1, after: null });
        expect(found.items.map((l) => l.id)).to.deep.equal([target.id]);
        await store.upsertMany([{ ...changed, status: 'vendue', left_market_at: changed.updated_at }]);
        const gone = await store.search({ filter: { words: ['orangerie'] }, scope: ALL, grouped: true, sort: 'recent', pageSize: 10, page: 1, after: null });
        expect(gone.items).to.have.length(0);
        await store.upsertMany([target]);
      });

      it('block reads: findBlock, findBlocks and blockKeysAfter agree on the active listings of each block', async () => {
        const keys = [
          ...new Set(
            listings
              .filter((l) => l.status === 'active')
              .map((l) => blockKeyOf(l))
              .filter((k): k is string => k !== null),
          ),
        ].sort();
        const sample = keys.filter((_, i) => i % 7 === 0).slice(0, 12);
        for (const key of sample) {
          const expected = listings
            .filter((l) => l.status === 'active' && blockKeyOf(l) === key)
            .map((l) => l.id)
            .sort();
          expect((await store.findBlock(key)).map((l) => l.id).sort(), key).to.deep.equal(expected);
        }
        const many = await store.findBlocks([...sample, 'no|such|block|0']);
        expect([...many.keys()].sort()).to.deep.equal([...sample, 'no|such|block|0'].sort());
        for (const key of sample)
          expect(
            many
              .get(key)!
              .map((l) => l.id)
              .sort(),
          ).to.deep.equal((await store.findBlock(key)).map((l) => l.id).sort());
        const paged: string[] = [];
        for (let after: string | null = null; ; ) {
          const page = await store.blockKeysAfter(after, 17);
          paged.push(...page);
          if (page.length < 17) break;
          after = page[page.length - 1];
        }
        expect(paged).to.deep.equal(keys);
        // Where the engine keeps candidates, they are the block's active listings as a whole listing
        // makes them, features included; read many blocks at once where the engine offers it.
        const stored = store.capabilities.storedCandidates;
        const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
        const expectedOf = async (key: string) => (await store.findBlock(key)).sort(byId).map(expectedCandidate);
        for (const key of stored ? sample : []) {
          expect((await stored!.findBlockCandidates(key)).sort(byId).map(comparableCandidate), key).to.deep.equal(await expectedOf(key));
        }
        if (stored?.findBlocksCandidates) {
          const read = await stored.findBlocksCandidates([...sample, 'no|such|block|0']);
          expect([...read.keys()].sort()).to.deep.equal([...sample, 'no|such|block|0'].sort());
          for (const key of sample) expect(read.get(key)!.sort(byId).map(comparableCandidate), key).to.deep.equal(await expectedOf(key));
        }
      });

      it('catalogue: every listing once, the active ones then the others, page by page', async () => {
        const read = async (which: 'active' | 'inactive') => {
          const ids: string[] = [];
          for (let after: SortPosition | null = null; ; ) {
            const page = await store.catalogue(which, after, 97);
            ids.push(...page.items.map((l) => l.id));
            if (!page.hasMore || !page.last) return ids;
            after = page.last;
          }
        };
        const active = await read('active');
        const inactive = await read('inactive');
        expect(active.slice().sort()).to.deep.equal(
          listings
            .filter((l) => l.status === 'active')
            .map((l) => l.id)
            .sort(),
        );
        expect(inactive.slice().sort()).to.deep.equal(
          listings
            .filter((l) => l.status !== 'active')
            .map((l) => l.id)
            .sort(),
        );
      });

      it('upsertGroupFields writes the group fields; the grouping-pending mark is kept until cleared', async () => {
        const target = listings.find((l) => l.status === 'active' && blockKeyOf(l) !== null)!;
        await store.upsertGroupFields([{ ...target, dedup_key: 'g-conformance' }]);
        expect((await store.getMany([target.id])).get(target.id)?.dedup_key).to.equal('g-conformance');
        await store.upsertGroupFields([target]);
        expect((await store.getMany([target.id])).get(target.id)?.dedup_key).to.equal(target.dedup_key);
        expect(await store.groupingPending()).to.equal(false);
        await store.setGroupingPending(true);
        expect(await store.groupingPending()).to.equal(true);
        await store.setGroupingPending(false);
        expect(await store.groupingPending()).to.equal(false);
      });

      it('one writer at a time: a second writer is refused, naming the first, until it releases', async () => {
        const first = await store.acquireWriterLock({ changesFrom: 1 });
        const refused = await store.acquireWriterLock({ changesFrom: 2 }).then(
          () => null,
          (error: Error) => error,
        );
        expect(refused).to.be.instanceOf(WriterBusyError);
        expect(refused?.message).to.include(`pid ${process.pid}`);
        await first.release();
        await (await store.acquireWriterLock({ changesFrom: 3 })).release();
      });

      it('maxChangeSeq, maxChangedAt and count', async () => {
        expect(await store.maxChangeSeq()).to.equal(Math.max(...listings.map((l) => l.change_seq)));
        expect(await store.maxChangedAt()).to.equal(Math.max(...listings.map((l) => l.changed_at)));
        expect(await store.count()).to.equal(listings.length);
        expect((await store.health()).ok).to.equal(true);
      });
    });
  });
}
