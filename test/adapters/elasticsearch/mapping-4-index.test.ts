/**
 * An index of mapping 4 (the texts of the pages and maps, not the detail's text, the map keys nor the
 * plain coordinates) behind the alias, as a cluster has it until `reindex`: the indexer writes what it
 * holds, the detail is presented from `_source` and a capped map is spread over its cells in index
 * order, the same answers as on an index of the current mapping.
 */
import { expect } from 'chai';
import type { ElasticsearchListingStore } from '../../../src/adapters/elasticsearch/listing-store.js';
import { DETAIL_JSON_FIELD, LAT_FIELD, LON_FIELD, MAP_KEY_FIELD } from '../../../src/adapters/elasticsearch/read-model.js';
import { presentAnnonce } from '../../../src/core/model/present.js';
import { SAMPLING_GRID } from '../../../src/core/query/map-sampling.js';
import type { MapQuery } from '../../../src/core/query/query.js';
import { openOlderMappingStore } from '../../support/elasticsearch.js';
import { makeListings } from '../../support/fixtures.js';
import { inBox, visibleInSearch } from '../../support/oracle.js';
import { mapPointsOf } from '../../support/map-points.js';

describe('Elasticsearch: an index of mapping 4', function () {
  this.timeout(60_000);
  const listings = makeListings({ count: 400, seed: 21 }).map((l, i) =>
    i === 0
      ? {
          ...l,
          price_points: [
            { at: '2026-06-01T00:00:00.000Z', price: 120 },
            { at: '2026-07-01T00:00:00.000Z', price: 100 },
            { at: '2026-08-01T00:00:00.000Z', price: 90 },
          ],
        }
      : l,
  );
  let store: ElasticsearchListingStore | null = null;

  before(async function () {
    store = await openOlderMappingStore('mapping-4', 4, [DETAIL_JSON_FIELD, MAP_KEY_FIELD, LAT_FIELD, LON_FIELD]);
    if (!store) return this.skip();
    expect(await store.upsertMany(listings)).to.deep.equal([]);
  });
  after(async () => {
    await store?.close();
  });

  it('writes the texts it holds, and presents the detail from _source, with or without the series', async () => {
    const page = await store!.search({
      filter: {},
      scope: { enteredFrom: 0, eligibleSites: null },
      grouped: false,
      sort: 'recent',
      pageSize: 5,
      page: 1,
      after: null,
    });
    expect(page.items.every((item) => item.public_json)).to.equal(true);
    for (const listing of listings.slice(0, 3)) {
      for (const withPricePoints of [false, true]) {
        const presented = await store!.getPresented(listing.id, { withPricePoints });
        expect(String(presented?.annonce)).to.equal(JSON.stringify(presentAnnonce(listing, { withPricePoints })));
        expect(presented).to.include({ id: listing.id, status: listing.status, catalogue_entered_at: listing.catalogue_entered_at });
      }
    }
  });

  it('spreads a capped map over its cells in index order: the exact total, the limit, each point of the box once', async () => {
    const bbox = { south: 41, west: -5.5, north: 51.5, east: 10 };
    const query: MapQuery = { filter: {}, scope: { enteredFrom: 0, eligibleSites: null }, grouped: true, bbox, limit: 30 };
    const inQuery = listings.filter((l) => visibleInSearch(l, query.scope, true) && inBox(l, bbox));
    expect(inQuery.length).to.be.greaterThan(query.limit);
    const result = await store!.map(query);
    expect(result.total).to.equal(inQuery.length);
    expect(result.sampling).to.deep.equal({ grid: SAMPLING_GRID });
    const ids = mapPointsOf(result).map((p) => `${p.source}:${p.reference}`);
    expect(new Set(ids).size).to.equal(query.limit);
    expect(ids.every((id) => inQuery.some((l) => l.id === id))).to.equal(true);
  });
});
