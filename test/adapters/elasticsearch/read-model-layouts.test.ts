/**
 * The read model's layouts on a running cluster. The current mapping keeps the Annonce text as bytes
 * (`public_bin`), so that a page comes back from the node in ASCII. Indexes of mappings 4 and 5
 * behind the alias, as a cluster has them until `reindex`: the indexer writes what they hold and the
 * API answers as on an index of the current mapping.
 * - Mapping 4: the texts of the pages and maps, not the detail's text, the map keys nor the plain
 *   coordinates: the detail is presented from `_source`, a capped map spread over its cells in index order.
 * - Mapping 5: the Annonce text in a stored keyword (`public_json`), not as bytes (`public_bin`):
 *   pages and details are served from it.
 * - Mapping 7: the map point's text alone (`map_json`), its version and coordinates in their own doc
 *   values, not in one (`map_bin`): the maps read them in that form, with the same points.
 */
import { expect } from 'chai';
import { indicesOf, reindex } from '../../../src/adapters/elasticsearch/aliases.js';
import type { ElasticsearchListingStore } from '../../../src/adapters/elasticsearch/listing-store.js';
import {
  DETAIL_JSON_FIELD,
  JSON_VERSION_FIELD,
  LAT_FIELD,
  LON_FIELD,
  MAP_BIN_FIELD,
  MAP_JSON_FIELD,
  MAP_KEY_FIELD,
  MAP_POINT_DOC_VALUES,
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

/** The `docvalue_fields` of each map request `store` sends while `read` runs. */
async function mapDocValuesAsked(store: ElasticsearchListingStore, read: () => Promise<unknown>): Promise<string[][]> {
  const asked: string[][] = [];
  const listener = (_error: unknown, event: { meta?: { request?: { params?: { body?: unknown } } } } | null) => {
    const body = event?.meta?.request?.params?.body;
    if (typeof body === 'string' && body.includes('docvalue_fields')) asked.push(JSON.parse(body).docvalue_fields);
  };
  store.client.diagnostic.on('request', listener);
  try {
    await read();
  } finally {
    store.client.diagnostic.off('request', listener);
  }
  return asked;
}

describe('Elasticsearch: an index of mapping 7 beside one of the current mapping', function () {
  this.timeout(90_000);
  const listings = makeListings({ count: 400, seed: 24 });
  const bbox = { south: 41, west: -5.5, north: 51.5, east: 10 };
  const capped: MapQuery = { filter: {}, scope: { enteredFrom: 0, eligibleSites: null }, grouped: true, bbox, limit: 30 };
  const uncapped: MapQuery = { ...capped, limit: 2000 };
  let current: ElasticsearchListingStore | null = null;
  let older: ElasticsearchListingStore | null = null;

  before(async function () {
    older = await openOlderMappingStore('mapping-7', 7, []);
    if (!older) return this.skip();
    current = await openTestElasticsearchStore('mapping-8');
    expect(await older.upsertMany(listings)).to.deep.equal([]);
    expect(await current.upsertMany(listings)).to.deep.equal([]);
  });
  after(async () => {
    await older?.close();
    await current?.close();
  });

  // The same points, whatever each index's order (a reindexed one has its own).
  const sortedPoints = (result: Awaited<ReturnType<ElasticsearchListingStore['map']>>) =>
    mapPointsOf(result).sort((a, b) => `${a.source}:${a.reference}`.localeCompare(`${b.source}:${b.reference}`));
  const pointFieldsOf = async (store: ElasticsearchListingStore, id: string) => {
    const hit = await store.client.search({ index: store.alias, query: { ids: { values: [id] } }, docvalue_fields: [MAP_BIN_FIELD, MAP_JSON_FIELD] });
    return Object.keys(hit.hits.hits[0].fields ?? {}).sort();
  };

  it('keeps each map point in one doc value, and a map reads that one alone', async () => {
    const located = listings.find((l) => l.content.latitude !== null)!;
    expect(await pointFieldsOf(current!, located.id)).to.deep.equal([MAP_BIN_FIELD]);
    expect(await pointFieldsOf(older!, located.id)).to.deep.equal([MAP_JSON_FIELD]);
    for (const query of [capped, uncapped]) {
      const asked = await mapDocValuesAsked(current!, () => current!.map(query));
      expect(asked.length).to.be.greaterThan(0);
      for (const fields of asked) expect(fields).to.deep.equal(MAP_POINT_DOC_VALUES);
    }
  });

  it('gives the same maps from both, the older read again in its form until reindex, then in one doc value', async () => {
    const inQuery = listings.filter((l) => visibleInSearch(l, capped.scope, true) && inBox(l, bbox));
    expect(inQuery.length).to.be.greaterThan(capped.limit);
    for (const query of [capped, uncapped]) {
      const expected = await current!.map(query);
      expect(expected.total).to.equal(inQuery.length);
      expect(expected.count).to.equal(Math.min(query.limit, inQuery.length));
      const asked = await mapDocValuesAsked(older!, async () => expect(sortedPoints(await older!.map(query))).to.deep.equal(sortedPoints(expected)));
      expect(asked.at(-1)).to.include.members([JSON_VERSION_FIELD, MAP_JSON_FIELD]);
    }
    const [generation] = await indicesOf(older!.client, older!.alias);
    await reindex(older!.client, { alias: older!.alias });
    await older!.client.indices.delete({ index: generation });
    const located = listings.find((l) => l.content.latitude !== null)!;
    expect(await pointFieldsOf(older!, located.id)).to.deep.equal([MAP_BIN_FIELD]);
    for (const query of [capped, uncapped]) {
      const asked = await mapDocValuesAsked(older!, async () =>
        expect(sortedPoints(await older!.map(query))).to.deep.equal(sortedPoints(await current!.map(query))),
      );
      for (const fields of asked) expect(fields).to.deep.equal(MAP_POINT_DOC_VALUES);
    }
  });
});
