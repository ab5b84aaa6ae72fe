/**
 * The read model's layouts on a running cluster. The current mapping keeps the Annonce text as bytes
 * (`public_bin`), so that a page comes back from the node in ASCII. Indexes of mappings 4 and 5
 * behind the alias, as a cluster has them until `reindex`: the indexer writes what they hold and the
 * API answers as on an index of the current mapping.
 * - Mapping 4: the texts of the pages and maps, not the detail's text, the map keys nor the plain
 *   coordinates: the detail is presented from `_source`, a capped map spread over its cells in index order.
 * - Mapping 5: the Annonce text in a stored keyword (`public_json`), not as bytes (`public_bin`):
 *   pages and details are served from it.
 */
import { expect } from 'chai';
import { indicesOf, reindex } from '../../../src/adapters/elasticsearch/aliases.js';
import type { ElasticsearchListingStore } from '../../../src/adapters/elasticsearch/listing-store.js';
import {
  DETAIL_JSON_FIELD,
  LAT_FIELD,
  LON_FIELD,
  MAP_KEY_FIELD,
  PAGE_RESPONSE_FILTER,
  PRESENTED_PAGE_FIELDS,
  PUBLIC_BIN_FIELD,
  PUBLIC_JSON_FIELD,
} from '../../../src/adapters/elasticsearch/read-model.js';
import { presentAnnonce } from '../../../src/core/model/present.js';
import { SAMPLING_GRID } from '../../../src/core/query/map-sampling.js';
import type { MapQuery } from '../../../src/core/query/query.js';
import { elasticsearchConnection, openOlderMappingStore, openTestElasticsearchStore } from '../../support/elasticsearch.js';
import { makeListings } from '../../support/fixtures.js';
import { inBox, visibleInSearch } from '../../support/oracle.js';
import { mapPointsOf } from '../../support/map-points.js';

/** The Annonce text as mappings 4 and 5 held it. */
const KEYWORD_TEXT = { [PUBLIC_JSON_FIELD]: { type: 'keyword', index: false, doc_values: false, store: true } } as const;

/** Which of the Annonce text's fields a document stores. */
async function textFieldsOf(store: ElasticsearchListingStore, id: string): Promise<string[]> {
  const stored = await store.client.get({ index: store.alias, id, stored_fields: [PUBLIC_JSON_FIELD, PUBLIC_BIN_FIELD] });
  return Object.keys(stored.fields ?? {});
}

const firstPage = (store: ElasticsearchListingStore) =>
  store.search({ filter: {}, scope: { enteredFrom: 0, eligibleSites: null }, grouped: false, sort: 'recent', pageSize: 5, page: 1, after: null });

describe('Elasticsearch: an index of the current mapping', function () {
  this.timeout(60_000);
  const listings = makeListings({ count: 60, seed: 23 });
  let store: ElasticsearchListingStore | null = null;

  before(async function () {
    if (!elasticsearchConnection() && !process.env.REQUIRE_ALL_ENGINES) return this.skip();
    store = await openTestElasticsearchStore('current-layout');
    expect(await store.upsertMany(listings)).to.deep.equal([]);
  });
  after(async () => {
    await store?.close();
  });

  it('stores the Annonce text as bytes only, and a page of accented texts comes back from the node in ASCII', async () => {
    const accented = listings.filter((l) => {
      const text = JSON.stringify(presentAnnonce(l));
      return Buffer.byteLength(text) > text.length;
    });
    expect(accented.length, 'listings with accented texts').to.be.greaterThan(10);
    expect(await textFieldsOf(store!, accented[0].id)).to.deep.equal([PUBLIC_BIN_FIELD]);
    const body = { size: 60, ...PRESENTED_PAGE_FIELDS, filter_path: PAGE_RESPONSE_FILTER };
    const raw = await store!.client.search({ index: store!.alias, ...body }, { asStream: true, meta: true });
    const chunks: Buffer[] = [];
    for await (const chunk of raw.body as unknown as AsyncIterable<Buffer>) chunks.push(chunk);
    const bytes = Buffer.concat(chunks);
    expect(bytes.length).to.be.greaterThan(60 * 500);
    expect(bytes.every((byte) => byte < 0x80)).to.equal(true);
    const page = await firstPage(store!);
    for (const item of page.items) expect(JSON.parse(String(item.public_json))).to.deep.equal(presentAnnonce(listings.find((l) => l.id === item.id)!));
  });
});

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
    store = await openOlderMappingStore('mapping-4', 4, [DETAIL_JSON_FIELD, MAP_KEY_FIELD, LAT_FIELD, LON_FIELD, PUBLIC_BIN_FIELD], KEYWORD_TEXT);
    if (!store) return this.skip();
    expect(await store.upsertMany(listings)).to.deep.equal([]);
  });
  after(async () => {
    await store?.close();
  });

  it('writes the texts it holds, and presents the detail from _source, with or without the series', async () => {
    const page = await firstPage(store!);
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

describe('Elasticsearch: an index of mapping 5', function () {
  this.timeout(60_000);
  const listings = makeListings({ count: 60, seed: 22 });
  let store: ElasticsearchListingStore | null = null;

  before(async function () {
    store = await openOlderMappingStore('mapping-5', 5, [PUBLIC_BIN_FIELD], KEYWORD_TEXT);
    if (!store) return this.skip();
    expect(await store.upsertMany(listings)).to.deep.equal([]);
  });
  after(async () => {
    await store?.close();
  });

  it('writes the Annonce text in the keyword and serves pages and details from it', async () => {
    expect(await textFieldsOf(store!, listings[0].id)).to.deep.equal([PUBLIC_JSON_FIELD]);
    const page = await firstPage(store!);
    expect(page.items).to.have.length(5);
    for (const item of page.items) {
      const listing = listings.find((l) => l.id === item.id)!;
      expect(JSON.parse(String(item.public_json))).to.deep.equal(presentAnnonce(listing));
    }
    const presented = await store!.getPresented(listings[1].id, { withPricePoints: false });
    expect(String(presented?.annonce)).to.equal(JSON.stringify(presentAnnonce(listings[1])));
  });

  it('reindex builds the current layout: the text as bytes, the same answers', async () => {
    const [older] = await indicesOf(store!.client, store!.alias);
    await reindex(store!.client, { alias: store!.alias });
    // The older generation stays for a rollback; the store's close deletes the alias's own.
    await store!.client.indices.delete({ index: older });
    expect(await textFieldsOf(store!, listings[0].id)).to.deep.equal([PUBLIC_BIN_FIELD]);
    const presented = await store!.getPresented(listings[1].id, { withPricePoints: false });
    expect(String(presented?.annonce)).to.equal(JSON.stringify(presentAnnonce(listings[1])));
  });
});
