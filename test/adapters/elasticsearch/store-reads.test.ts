/**
 * The store against a mocked cluster: it sends the golden bodies to the alias and turns the answers
 * into the port's results (items, has_more from the look-ahead hit, position from the hit's sort).
 */
import { expect } from 'chai';
import type { StoredListing } from '../../../src/core/model/stored.js';
import type { FeedQuery, SearchQuery } from '../../../src/core/query/query.js';
import { presentAnnonce, presentMapPoint } from '../../../src/core/model/present.js';
import { mapPointsOf } from '../../support/map-points.js';
import { ElasticsearchListingStore } from '../../../src/adapters/elasticsearch/listing-store.js';
import { MAP_POINT_FIELDS, toSource, type ListingSource } from '../../../src/adapters/elasticsearch/document.js';
import { makeListings } from '../../support/fixtures.js';
import { loadGoldens } from './goldens.js';
import { hitOf, mockCluster } from './mock-cluster.js';

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

/** A stored document as a search with `_source.excludes: ["price_points"]` returns it. */
function searchHit(listing: StoredListing, sort: (string | number)[]): object {
  const { price_points: _series, ...source } = JSON.parse(JSON.stringify(toSource(listing))) as ListingSource;
  return hitOf(source, sort);
}

const golden = (file: string) => {
  const found = loadGoldens().find((g) => g.file === file);
  if (!found) throw new Error(`no golden ${file}`);
  return found;
};

describe('Elasticsearch store reads (mocked cluster)', () => {
  it('search: sends the golden body to the alias; page = pageSize hits, has_more from the extra one, position from its sort', async () => {
    const { query, body } = golden('search-recent-after.json') as { query: SearchQuery; body: object };
    const cluster = mockCluster();
    const page = listings.slice(0, query.pageSize + 1);
    cluster.on('POST', '/annonces/_search', () => ({ hits: { hits: page.map((l) => searchHit(l, [l.updated_at, l.id])) } }));
    const result = await new ElasticsearchListingStore(cluster.client, { alias: 'annonces' }).search(query);
    expect(cluster.requests[0].body).to.deep.equal(body);
    expect(result.items.map((l) => l.id)).to.deep.equal(page.slice(0, query.pageSize).map((l) => l.id));
    expect(result.hasMore).to.equal(true);
    const last = page[query.pageSize - 1];
    expect(result.last).to.deep.equal([last.updated_at, last.id]);
    // Read without the series, presented exactly as the stored listing (price_history from the digest).
    for (const [i, item] of result.items.entries()) expect(presentAnnonce(item)).to.deep.equal(presentAnnonce(page[i]));
  });

  it('search: the last page has no more and keeps the sentinel position of an unknown price', async () => {
    const cluster = mockCluster();
    const noPrice = { ...listings[1], content: { ...listings[1].content, price: null } };
    cluster.on('POST', '/annonces/_search', () => ({ hits: { hits: [searchHit(noPrice, [1e18, noPrice.id])] } }));
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
      cluster.on('POST', '/annonces/_search', () => ({ hits: { hits: listings.slice(0, 3).map((l) => searchHit(l, [l.changed_at, l.change_seq])) } }));
      const store = new ElasticsearchListingStore(cluster.client, { alias: 'annonces' });
      const result = kind === 'feed' ? await store.feed(query) : await store.withdrawn(query);
      expect(cluster.requests[0].body, file).to.deep.equal(body);
      expect(result.hasMore).to.equal(false);
      expect(result.last).to.deep.equal([listings[2].changed_at, listings[2].change_seq]);
    }
  });

  it('map: exact total from hits.total, thin points presented like the full listings', async () => {
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
    expect(cluster.requests[0].body).to.deep.equal(body);
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

  it('findBlock: refreshes first after this store wrote, then reads every page of the block, series included', async () => {
    const cluster = mockCluster();
    const block = makeListings({ count: 1500, seed: 2 }).slice(0, 1200);
    cluster.on('POST', '/_bulk', (params) => ({
      errors: false,
      items: (params.body as any[]).filter((_, i) => i % 2 === 0).map((a) => ({ index: { _id: a.index._id, status: 201 } })),
    }));
    cluster.on('GET', '/annonces/_refresh', () => ({ _shards: { total: 1, successful: 1, failed: 0 } }));
    cluster.on('POST', '/annonces/_search', (params) => {
      const after = params.body.search_after as string[] | undefined;
      const start = after ? block.findIndex((l) => l.id === after[0]) + 1 : 0;
      return {
        hits: {
          hits: block
            .slice(start, start + params.body.size)
            .map((l) => hitOf({ ...JSON.parse(JSON.stringify(toSource(l))), block_key: 'vente|maison|69003' }, [l.id])),
        },
      };
    });
    const store = new ElasticsearchListingStore(cluster.client, { alias: 'annonces' });
    await store.upsertMany([listings[0]]);
    const found = await store.findBlock('vente|maison|69003');
    expect(found.map((l) => l.id)).to.deep.equal(block.map((l) => l.id));
    expect(cluster.requests.map((r) => `${r.method} ${r.path}`)).to.deep.equal([
      'POST /_bulk',
      'GET /annonces/_refresh',
      'POST /annonces/_search',
      'POST /annonces/_search',
    ]);
    expect(cluster.requests[2].body).to.deep.equal({
      query: { bool: { filter: [{ terms: { block_key: ['vente|maison|69003'] } }, { term: { status: 'active' } }] } },
      sort: [{ id: { order: 'asc' } }],
      size: 1000,
      track_total_hits: false,
    });
    expect(cluster.requests[3].body.search_after).to.deep.equal([block[999].id]);
    await store.findBlock('vente|maison|69003');
    expect(cluster.requests.filter((r) => r.path.endsWith('_refresh'))).to.have.length(1);
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
