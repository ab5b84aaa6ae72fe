/**
 * The store against a mocked cluster: it sends the golden bodies to the alias and turns the answers
 * into the port's results (items, has_more from the look-ahead hit, position from the hit's sort).
 */
import { expect } from 'chai';
import type { StoredListing } from '../../../src/core/model/stored.js';
import type { FeedQuery, SearchQuery } from '../../../src/core/query/query.js';
import { annonceJson, presentAnnonce, presentMapPoint } from '../../../src/core/model/present.js';
import { loadIndexDefinition } from '../../../src/adapters/elasticsearch/index-definition.js';
import { mapPointsOf } from '../../support/map-points.js';
import { ElasticsearchListingStore } from '../../../src/adapters/elasticsearch/listing-store.js';
import { MAP_POINT_FIELDS, PAGE_EXCLUDED_FIELDS, toSource, type ListingSource } from '../../../src/adapters/elasticsearch/document.js';
import { ANY_FORM_MAP_TEXT_DOC_VALUES, readModelFields } from '../../../src/adapters/elasticsearch/read-model.js';
import { mapPointBytesOf } from '../../../src/adapters/elasticsearch/map-point-bytes.js';
import { cellCountsAggs } from '../../../src/adapters/elasticsearch/map-cells-body.js';
import { boxThreshold, firstThresholds, KEY_SPAN, sampleCountsBody } from '../../../src/adapters/elasticsearch/map-sample-body.js';
import { samplingCells } from '../../../src/core/query/map-sampling.js';
import { PUBLIC_JSON_VERSION } from '../../../src/core/model/present.js';
import { makeListings } from '../../support/fixtures.js';
import { blockKeyOf } from '../../../src/core/dedup/block-key.js';
import { loadGoldens } from './goldens.js';
import { errorBody, hitOf, mockCluster, responseError } from './mock-cluster.js';

const listings = makeListings({ count: 30, seed: 9 }).map((l, i) =>
  i % 3 === 0
    ? {
        ...l,
        price_points: [
          { at: '2026-07-01T00:00:00.000Z', price: 200_000 },
          { at: '2026-07-02T00:00:00.000Z', price: 190_000 },
          { at: '2026-07-09T00:00:00.000Z', price: 185_000 },
        ],
      }
    : l,
);

/** A document of the older form (no read model) as a search with `_source.excludes: ["price_points"]` returned it. */
function searchHit(listing: StoredListing, sort: (string | number)[]): object {
  const { price_points: _series, ...source } = JSON.parse(JSON.stringify(toSource(listing))) as ListingSource;
  return hitOf(source, sort);
}

/** A document of the current form as a page search returns it: no `_source`, its text and doc values. */
function presentedHit(listing: StoredListing, sort: (string | number)[], version = PUBLIC_JSON_VERSION): object {
  const fields: Record<string, unknown[]> = {
    public_json: [readModelFields(listing).public_json],
    json_v: [version],
    status: [listing.status],
    change_seq: [listing.change_seq],
    changed_at: [String(listing.changed_at)],
  };
  if (listing.left_market_at !== null) fields.left_market_at = [String(listing.left_market_at)];
  return { _index: 'annonces-v1', _id: listing.id, _score: null, fields, sort };
}

/** What the mget of older documents returns, for a cluster mock. */
function mgetOf(ids: string[]): object {
  return {
    docs: ids.map((id) => {
      const listing = listings.find((l) => l.id === id)!;
      const { price_points: _series, ...source } = JSON.parse(JSON.stringify(toSource(listing))) as ListingSource;
      return { _index: 'annonces-v1', _id: id, found: true, _source: source };
    }),
  };
}

const golden = (file: string) => {
  const found = loadGoldens().find((g) => g.file === file);
  if (!found) throw new Error(`no golden ${file}`);
  return found;
};

/** A capped map's hit: its text and coordinates in one doc value (mapping 8), in the box's bottom row. */
const at = (l: StoredListing, lon: number) => ({
  fields: { map_bin: [mapPointBytesOf(PUBLIC_JSON_VERSION, 45.05, lon, JSON.stringify(presentMapPoint(l))).toString('base64')] },
});

describe('Elasticsearch store reads (mocked cluster)', () => {
  it('search: sends the golden body to the alias; page = pageSize hits, has_more from the extra one, position from its sort', async () => {
    const { query, body } = golden('search-recent-after.json') as { query: SearchQuery; body: object };
    const cluster = mockCluster();
    const page = listings.slice(0, query.pageSize + 1);
    cluster.on('POST', '/annonces/_search', () => ({ hits: { hits: page.map((l) => presentedHit(l, [l.updated_at, l.id])) } }));
    const result = await new ElasticsearchListingStore(cluster.client, { alias: 'annonces' }).search(query);
    expect(cluster.requests[0].body).to.deep.equal(body);
    expect(cluster.requests).to.have.length(1);
    expect(result.items.map((l) => l.id)).to.deep.equal(page.slice(0, query.pageSize).map((l) => l.id));
    expect(result.hasMore).to.equal(true);
    const last = page[query.pageSize - 1];
    expect(result.last).to.deep.equal([last.updated_at, last.id]);
    // The stored text, sent as it is: the API parses and presents nothing.
    for (const [i, item] of result.items.entries()) expect(JSON.parse(String(item.public_json))).to.deep.equal(presentAnnonce(page[i]));
  });

  it('search: hits of older documents (no text, or a text of another presenter version) are read whole in one mget, in page order', async () => {
    const cluster = mockCluster();
    const page = listings.slice(0, 6);
    cluster.on('POST', '/annonces/_search', () => ({
      hits: {
        hits: page.map((l, i) =>
          i % 3 === 1 ? searchHit(l, [l.updated_at, l.id]) : presentedHit(l, [l.updated_at, l.id], i === 2 ? PUBLIC_JSON_VERSION - 1 : PUBLIC_JSON_VERSION),
        ),
      },
    }));
    let excluded: string | undefined;
    cluster.on('POST', '/annonces/_mget', (params) => {
      excluded = params.querystring?._source_excludes;
      return mgetOf(params.body.ids as string[]);
    });
    const query: SearchQuery = {
      filter: {},
      scope: { enteredFrom: 0, eligibleSites: null },
      grouped: true,
      sort: 'recent',
      pageSize: 25,
      page: 1,
      after: null,
    };
    const result = await new ElasticsearchListingStore(cluster.client, { alias: 'annonces' }).search(query);
    expect(cluster.requests.map((r) => r.path)).to.deep.equal(['/annonces/_search', '/annonces/_mget']);
    expect(cluster.requests[1].body.ids).to.deep.equal([page[1].id, page[2].id, page[4].id]);
    expect(excluded).to.equal(PAGE_EXCLUDED_FIELDS.join(','));
    expect(result.items.map((l) => l.id)).to.deep.equal(page.map((l) => l.id));
    for (const [i, item] of result.items.entries()) expect(JSON.parse(String(annonceJson(item))), item.id).to.deep.equal(presentAnnonce(page[i]));
  });

  it('a presented page listing gives its change position and refuses the fields it was not read with', async () => {
    const cluster = mockCluster();
    const listing = listings[4];
    cluster.on('POST', '/annonces/_search', () => ({ hits: { hits: [presentedHit(listing, [listing.changed_at, listing.change_seq])] } }));
    const result = await new ElasticsearchListingStore(cluster.client, { alias: 'annonces' }).feed({
      filter: {},
      scope: { enteredFrom: 0, eligibleSites: null },
      changedUntil: Date.now(),
      pageSize: 10,
      after: null,
    });
    const [item] = result.items;
    expect([item.id, item.status, item.changed_at, item.change_seq, item.left_market_at]).to.deep.equal([
      listing.id,
      listing.status,
      listing.changed_at,
      listing.change_seq,
      listing.left_market_at,
    ]);
    expect(() => item.content).to.throw(/content is not read with a result page/);
    expect(() => item.price_points).to.throw(/price_points is not read/);
  });

  it('search: the last page has no more and keeps the sentinel position of an unknown price', async () => {
    const cluster = mockCluster();
    const noPrice = { ...listings[1], content: { ...listings[1].content, price: null } };
    cluster.on('POST', '/annonces/_search', () => ({ hits: { hits: [presentedHit(noPrice, [1e18, noPrice.id])] } }));
    const query: SearchQuery = {
      filter: {},
      scope: { enteredFrom: 0, eligibleSites: null },
      grouped: true,
      sort: 'price_asc',
      pageSize: 10,
      page: 1,
      after: null,
    };
    const result = await new ElasticsearchListingStore(cluster.client, { alias: 'annonces' }).search(query);
    expect(result).to.deep.include({ hasMore: false, last: [1e18, noPrice.id] });
  });

  it('feed and withdrawn: golden bodies, position [changed_at, change_seq]', async () => {
    for (const file of ['feed-after-sites-subfeed.json', 'withdrawn-after-sites.json']) {
      const { kind, query, body } = golden(file) as { kind: 'feed' | 'withdrawn'; query: FeedQuery; body: object };
      const cluster = mockCluster();
      cluster.on('POST', '/annonces/_search', () => ({ hits: { hits: listings.slice(0, 3).map((l) => presentedHit(l, [l.changed_at, l.change_seq])) } }));
      const store = new ElasticsearchListingStore(cluster.client, { alias: 'annonces' });
      const result = kind === 'feed' ? await store.feed(query) : await store.withdrawn(query);
      expect(cluster.requests[0].body, file).to.deep.equal(body);
      expect(result.hasMore).to.equal(false);
      expect(result.last).to.deep.equal([listings[2].changed_at, listings[2].change_seq]);
    }
  });

  it('map: exact total from hits.total, each point its text from doc values', async () => {
    const { query, body } = golden('map-antimeridian.json') as { query: Parameters<ElasticsearchListingStore['map']>[0]; body: object };
    const cluster = mockCluster();
    const points = listings.slice(0, 4);
    const hit = (l: StoredListing) => ({
      _index: 'annonces-v1',
      _score: null,
      fields: { map_bin: [readModelFields(l, 'points').map_bin] },
    });
    // A total under the limit (a capped box is spread over its cells: below), every hit of it returned.
    cluster.on('POST', '/annonces/_search', () => ({ hits: { total: { value: points.length, relation: 'eq' }, hits: points.map(hit) } }));
    const result = await new ElasticsearchListingStore(cluster.client, { alias: 'annonces' }).map(query);
    // The box's total and its cells' first (no hit), then the golden body.
    expect(cluster.requests[0].body).to.deep.equal(JSON.parse(JSON.stringify(sampleCountsBody(query))));
    expect(cluster.requests[1].body).to.deep.equal(body);
    expect(cluster.requests).to.have.length(2);
    expect(result.total).to.equal(points.length);
    expect(result.count).to.equal(points.length);
    expect(mapPointsOf(result)).to.deep.equal(points.map(presentMapPoint));
  });

  it('map: a capped box: its cells counted, then each cell read below its key threshold, its quota from the front, a short cell read again', async () => {
    const { query } = golden('map-box-grouped.json') as { query: Parameters<ElasticsearchListingStore['map']>[0] };
    // Cells 0 and 1 (the south-west corner of the box, then the cell east of it) hold every listing.
    const counts = {
      rows: {
        buckets: [
          {
            key: '0',
            doc_count: 4000,
            columns: {
              buckets: [
                { key: '0', doc_count: 3000 },
                { key: '1', doc_count: 1000 },
              ],
            },
          },
        ],
      },
    };
    for (const shortFirst of [false, true]) {
      const cluster = mockCluster();
      cluster.on('POST', '/annonces/_search', (params) => {
        if (params.body.aggs?.rows) return { hits: { total: { value: 4000, relation: 'eq' } }, aggregations: counts };
        if (params.body.aggs) throw new Error('no cell read in index order');
        const cellsRead = params.body.query.bool.filter.at(-1).bool.should.length;
        // Cell 1 alone, read again: its one listing.
        if (cellsRead === 1) return { hits: { hits: [at(listings[3], 4.15)] } };
        // By key: three of cell 0 then one more (over its quota), and cell 1's one among them unless read short.
        const cell0 = [at(listings[0], 4.05), at(listings[1], 4.05), at(listings[2], 4.05), at(listings[5], 4.05)];
        return { hits: { hits: shortFirst ? cell0 : [cell0[0], at(listings[3], 4.15), ...cell0.slice(1)] } };
      });
      const result = await new ElasticsearchListingStore(cluster.client, { alias: 'annonces' }).map({ ...query, limit: 4 });
      expect(result.total).to.equal(4000);
      expect(result.sampling).to.deep.equal({ grid: 10 });
      expect(mapPointsOf(result)).to.deep.equal(listings.slice(0, 4).map(presentMapPoint));
      // The counts, the points, and for a cell read short the points of that cell again.
      expect(cluster.requests).to.have.length(shortFirst ? 3 : 2);
      const points = cluster.requests[1].body;
      expect(points).to.include({ track_total_hits: false });
      expect(points.sort).to.deep.equal([{ map_key: 'asc' }]);
      const [first0, first1] = firstThresholds([3000, 1000], [3, 1]);
      const thresholdsOf = (body: any) => body.query.bool.filter.at(-1).bool.should.map((share: any) => share.bool.filter[1].range.map_key.lt);
      expect(thresholdsOf(points)).to.deep.equal([first0, first1]);
      if (shortFirst) expect(thresholdsOf(cluster.requests[2].body)).to.deep.equal([Math.min(KEY_SPAN, first1 * 4)]);
    }
  });

  it('map: a capped box of even density: the box read below one threshold, then a cell read short again alone', async () => {
    const { query } = golden('map-box-grouped.json') as { query: Parameters<ElasticsearchListingStore['map']>[0] };
    const counts = {
      rows: {
        buckets: [
          {
            key: '0',
            doc_count: 6000,
            columns: {
              buckets: [
                { key: '0', doc_count: 3000 },
                { key: '1', doc_count: 3000 },
              ],
            },
          },
        ],
      },
    };
    // 200 points each: cell 0 from the box read, cell 1 only 150 there, then 200 from its own read.
    const cell = (lon: number, n: number) => Array.from({ length: n }, (_, i) => at(listings[i % listings.length], lon));
    const cluster = mockCluster();
    cluster.on('POST', '/annonces/_search', (params) => {
      if (params.body.aggs?.rows) return { hits: { total: { value: 6000, relation: 'eq' } }, aggregations: counts };
      const last = params.body.query.bool.filter.at(-1);
      if (last.bool?.should) return { hits: { hits: cell(4.15, 200) } };
      return { hits: { hits: [...cell(4.05, 210), ...cell(4.15, 150)] } };
    });
    const result = await new ElasticsearchListingStore(cluster.client, { alias: 'annonces' }).map({ ...query, limit: 400 });
    expect(result).to.deep.include({ total: 6000, count: 400, sampling: { grid: 10 } });
    expect(cluster.requests).to.have.length(3);
    const thresholds = firstThresholds([3000, 3000], [200, 200]);
    const first = boxThreshold([3000, 3000], thresholds, 400, 10_000);
    expect(first).to.equal(thresholds[0]);
    expect(cluster.requests[1].body.query.bool.filter.at(-1)).to.deep.equal({ range: { map_key: { lt: first } } });
    expect(cluster.requests[1].body.sort).to.deep.equal([{ map_key: 'asc' }]);
    const again = cluster.requests[2].body.query.bool.filter.at(-1).bool.should;
    expect(again.map((share: any) => share.bool.filter[1].range.map_key.lt)).to.deep.equal([Math.min(KEY_SPAN, first * 4)]);
  });

  it('map: a capped box on an index without plain coordinates: each cell share in index order, or cell by cell on an index that refuses it', async () => {
    const { query } = golden('map-box-grouped.json') as { query: Parameters<ElasticsearchListingStore['map']>[0] };
    const cells = samplingCells(query.bbox)!;
    const totals = cells.map((_, i) => (i === 0 ? 3000 : i === 1 ? 1000 : 0));
    const text = (l: StoredListing) => ({ fields: { json_v: [PUBLIC_JSON_VERSION], map_json: [readModelFields(l).map_json] } });
    for (const refused of [false, true]) {
      const cluster = mockCluster();
      cluster.on('POST', '/annonces/_search', (params) => {
        // Range aggregations on unmapped fields: every listing outside their buckets.
        if (params.body.aggs?.rows) return { hits: { total: { value: 4000, relation: 'eq' } }, aggregations: { rows: { buckets: [] } } };
        if (params.body.aggs?.cells)
          return { hits: { total: { value: 4000, relation: 'eq' }, hits: [] }, aggregations: { cells: { buckets: totals.map((n) => ({ doc_count: n })) } } };
        if (params.body.aggs) {
          if (refused) return responseError(400, errorBody(400, 'illegal_argument_exception', 'Top hits result window is too large'));
          return {
            aggregations: {
              c0: { points: { hits: { hits: listings.slice(0, 3).map(text) } } },
              c1: { points: { hits: { hits: listings.slice(3, 4).map(text) } } },
            },
          };
        }
        if (params.body.size === 0) return { hits: { total: { value: 4000, relation: 'eq' } } };
        return {
          hits: { total: { value: params.body.size, relation: 'eq' }, hits: listings.slice(0, 2).map((l) => hitOf(JSON.parse(JSON.stringify(toSource(l))))) },
        };
      });
      const result = await new ElasticsearchListingStore(cluster.client, { alias: 'annonces' }).map({ ...query, limit: 4 });
      expect(result.total).to.equal(4000);
      expect(result.sampling).to.deep.equal({ grid: 10 });
      expect(cluster.requests[1].body.aggs).to.deep.equal(JSON.parse(JSON.stringify(cellCountsAggs(cells))));
      const shares = cluster.requests[2].body;
      expect(Object.keys(shares.aggs)).to.deep.equal(['c0', 'c1']);
      expect([shares.aggs.c0.aggs.points.top_hits.size, shares.aggs.c1.aggs.points.top_hits.size]).to.deep.equal([3, 1]);
      if (!refused) {
        expect(cluster.requests).to.have.length(3);
        expect(mapPointsOf(result)).to.deep.equal(listings.slice(0, 4).map(presentMapPoint));
      } else {
        // One read per cell with a share, from _source, at most its share.
        expect(cluster.requests.slice(3).map((r) => [r.body.size, r.body._source])).to.deep.equal([
          [3, { includes: MAP_POINT_FIELDS }],
          [1, { includes: MAP_POINT_FIELDS }],
        ]);
      }
    }
  });

  it('map: a box holding an older document is read again from _source, thin points presented like the full listings', async () => {
    const { query, body } = golden('map-antimeridian.json') as { query: Parameters<ElasticsearchListingStore['map']>[0]; body: object };
    const cluster = mockCluster();
    const points = listings.slice(0, 4);
    const thin = (l: StoredListing) => {
      const source = toSource(l) as unknown as Record<string, any>;
      const out: Record<string, any> = { content: {} };
      for (const path of MAP_POINT_FIELDS) {
        const [head, tail] = path.split('.');
        if (tail) out.content[tail] = source.content[tail];
        else out[head] = source[head];
      }
      return JSON.parse(JSON.stringify(out));
    };
    // A total under the limit (a capped one is read again cell by cell: map-sampling.ts), yet not the hits' count.
    cluster.on('POST', '/annonces/_search', () => ({ hits: { total: { value: 1417, relation: 'eq' }, hits: points.map((l) => hitOf(thin(l))) } }));
    const result = await new ElasticsearchListingStore(cluster.client, { alias: 'annonces' }).map(query);
    expect(cluster.requests[1].body).to.deep.equal(body);
    // The points in any form (an index of mapping 7 or older), then from `_source`.
    expect(cluster.requests[2].body).to.deep.equal({ ...body, docvalue_fields: ANY_FORM_MAP_TEXT_DOC_VALUES });
    const { docvalue_fields: _, stored_fields: __, ...sameQuery } = body as Record<string, unknown>;
    expect(cluster.requests[3].body).to.deep.equal({ ...sameQuery, _source: { includes: MAP_POINT_FIELDS } });
    expect(cluster.requests).to.have.length(4);
    expect(result.total).to.equal(1417);
    expect(result.count).to.equal(points.length);
    expect(mapPointsOf(result)).to.deep.equal(points.map(presentMapPoint));
  });

  it('get: the whole document with its price series; getMany: mget in chunks, missing ids absent', async () => {
    const cluster = mockCluster();
    const withSeries = listings[0];
    expect(withSeries.price_points).to.have.length(3);
    cluster.on('GET', '/annonces/_doc/:id', () => ({
      _index: 'annonces-v1',
      _id: withSeries.id,
      found: true,
      _source: JSON.parse(JSON.stringify(toSource(withSeries))),
    }));
    cluster.on('POST', '/annonces/_mget', (params) => ({
      docs: (params.body.ids as string[]).map((id) => {
        const listing = listings.find((l) => l.id === id);
        return listing
          ? { _index: 'annonces-v1', _id: id, found: true, _source: JSON.parse(JSON.stringify(toSource(listing))) }
          : { _index: 'annonces', _id: id, found: false };
      }),
    }));
    const store = new ElasticsearchListingStore(cluster.client, { alias: 'annonces' });
    expect(await store.get(withSeries.id)).to.deep.equal(withSeries);
    expect(cluster.requests[0].path).to.equal(`/annonces/_doc/${withSeries.id}`); // the mock decodes the path
    const many = await store.getMany([listings[1].id, 'nope:nothing', listings[0].id]);
    expect([...many.keys()]).to.deep.equal([listings[1].id, listings[0].id]);
    expect(many.get(listings[0].id)).to.deep.equal(listings[0]);
  });

  /** A cluster holding `block` (1 200 listings) in whichever block is asked for, and a store on it. */
  const blockCluster = () => {
    const cluster = mockCluster();
    const block = makeListings({ count: 1500, seed: 2 }).slice(0, 1200);
    cluster.on('POST', '/_bulk', (params) => ({
      errors: false,
      items: (params.body as any[]).filter((_, i) => i % 2 === 0).map((a) => ({ index: { _id: a.index._id, status: 201 } })),
    }));
    cluster.on('GET', '/annonces/_refresh', () => ({ _shards: { total: 1, successful: 1, failed: 0 } }));
    cluster.on('GET', '/annonces/_mapping', () => ({ 'annonces-v1': { mappings: loadIndexDefinition().mappings } }));
    cluster.on('POST', '/annonces/_search', (params) => {
      const after = params.body.search_after as string[] | undefined;
      const start = after ? block.findIndex((l) => l.id === after[0]) + 1 : 0;
      const key = params.body.query.bool.filter[0].terms.block_key[0] as string;
      return {
        hits: { hits: block.slice(start, start + params.body.size).map((l) => hitOf({ ...JSON.parse(JSON.stringify(toSource(l))), block_key: key }, [l.id])) },
      };
    });
    return { cluster, block, store: new ElasticsearchListingStore(cluster.client, { alias: 'annonces' }) };
  };
  const calls = (cluster: ReturnType<typeof mockCluster>) => cluster.requests.map((r) => `${r.method} ${r.path}`);

  it('findBlock: refreshes first after this store wrote into the block, then reads every page of the block, series included', async () => {
    const { cluster, block, store } = blockCluster();
    const key = blockKeyOf(listings[0])!;
    await store.upsertMany([listings[0]]);
    const found = await store.findBlock(key);
    expect(found.map((l) => l.id)).to.deep.equal(block.map((l) => l.id));
    expect(calls(cluster)).to.deep.equal([
      'GET /annonces/_mapping',
      'POST /_bulk',
      'GET /annonces/_refresh',
      'POST /annonces/_search',
      'POST /annonces/_search',
    ]);
    expect(cluster.requests[3].body).to.deep.equal({
      query: { bool: { filter: [{ terms: { block_key: [key] } }, { term: { status: 'active' } }] } },
      sort: [{ id: { order: 'asc' } }],
      size: 1000,
      track_total_hits: false,
    });
    expect(cluster.requests[4].body.search_after).to.deep.equal([block[999].id]);
    await store.findBlock(key);
    expect(cluster.requests.filter((r) => r.path.endsWith('_refresh'))).to.have.length(1);
  });

  it('findBlocks and withdrawnInBlocks: no refresh when nothing written since is in the blocks read or among what they find', async () => {
    const { cluster, block, store } = blockCluster();
    const elsewhere = { ...listings.find((l) => blockKeyOf(l) !== null)!, id: 'elsewhere:1' };
    expect(block.map((l) => l.id)).to.not.include(elsewhere.id);
    await store.upsertMany([elsewhere]);
    const other = 'location|appartement|01000|0';
    expect(other).to.not.equal(blockKeyOf(elsewhere));
    expect((await store.findBlocks([other])).get(other)).to.have.length(block.length);
    expect(await store.withdrawnInBlocks([other], 0)).to.have.length(block.length);
    expect(calls(cluster).filter((c) => c.endsWith('_refresh'))).to.deep.equal([]);
    // Then the read of its own block refreshes.
    await store.withdrawnInBlocks([blockKeyOf(elsewhere)!], 0);
    expect(calls(cluster).filter((c) => c.endsWith('_refresh'))).to.have.length(1);
  });

  it('findBlocks: a listing found that was written since (it may have left the block) refreshes and reads the block again', async () => {
    const { cluster, block, store } = blockCluster();
    // The listing moved to another block: the index, not refreshed, still shows it in this one.
    const moved = { ...block[5], content: { ...block[5].content, postal_code: '01000' } };
    await store.upsertMany([moved]);
    const asked = 'vente|maison|69003|0';
    expect(asked).to.not.equal(blockKeyOf(moved));
    await store.findBlocks([asked]);
    expect(calls(cluster).slice(2)).to.deep.equal([
      'POST /annonces/_search',
      'POST /annonces/_search',
      'GET /annonces/_refresh',
      'POST /annonces/_search',
      'POST /annonces/_search',
    ]);
  });

  it('maxChangeSeq from a max aggregation (0 on an empty index), count from _count', async () => {
    const cluster = mockCluster();
    let empty = false;
    cluster.on('POST', '/annonces/_search', () => ({ hits: { hits: [] }, aggregations: { max_change_seq: { value: empty ? null : 4242 } } }));
    cluster.on('GET', '/annonces/_count', () => ({ count: 600 }));
    const store = new ElasticsearchListingStore(cluster.client, { alias: 'annonces' });
    expect(await store.maxChangeSeq()).to.equal(4242);
    expect(cluster.requests[0].body).to.deep.equal({ size: 0, track_total_hits: false, aggs: { max_change_seq: { max: { field: 'change_seq' } } } });
    empty = true;
    expect(await store.maxChangeSeq()).to.equal(0);
    expect(await store.count()).to.equal(600);
  });
});
