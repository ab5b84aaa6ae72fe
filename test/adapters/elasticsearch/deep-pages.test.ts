/**
 * Deep pages in page mode are read a few at a time (src/adapters/elasticsearch/deep-pages.ts): one
 * finding no free slot is refused at once with 503 and Retry-After, and shallow pages never wait.
 */
import { expect } from 'chai';
import type { SearchQuery } from '../../../src/core/query/query.js';
import { StoreBusyError } from '../../../src/core/ports/store-unavailable.js';
import { ElasticsearchListingStore } from '../../../src/adapters/elasticsearch/listing-store.js';
import { DEEP_PAGE_FROM } from '../../../src/adapters/elasticsearch/deep-pages.js';
import { errorBody, mockCluster, responseError } from './mock-cluster.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { elasticsearchMissing, openTestElasticsearchStore } from '../../support/elasticsearch.js';

const page = (n: number, pageSize = 100): SearchQuery => ({
  filter: {},
  scope: { enteredFrom: 0, eligibleSites: null },
  grouped: true,
  sort: 'recent',
  pageSize,
  page: n,
  after: null,
});
const deepPage = DEEP_PAGE_FROM / 100 + 1;

describe('Elasticsearch deep pages', () => {
  it('reads at most the allowed number at once, refuses the others at once, and never holds back a shallow page', async () => {
    const cluster = mockCluster();
    cluster.on('POST', '/annonces/_search', () => ({ hits: { hits: [] } }));
    const store = new ElasticsearchListingStore(cluster.client, { alias: 'annonces', deepPagesAtOnce: 2 });
    const outcomes = await Promise.allSettled([
      store.search(page(deepPage)),
      store.search(page(1000)),
      store.search(page(deepPage + 5)),
      store.search(page(2)),
      store.search(page(deepPage - 1)),
    ]);
    expect(outcomes.map((o) => o.status)).to.deep.equal(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    const refusal = (outcomes[2] as PromiseRejectedResult).reason;
    expect(refusal).to.be.instanceOf(StoreBusyError);
    expect(refusal.retryAfterSeconds).to.be.greaterThan(0);
    // The refused page sent nothing; the slots are free again once the pages are read.
    expect(cluster.requests).to.have.length(4);
    await Promise.all([store.search(page(deepPage)), store.search(page(deepPage))]);
  });

  it('a slot is given back when the read fails', async () => {
    const cluster = mockCluster();
    let fail = true;
    cluster.on('POST', '/annonces/_search', () => {
      return fail ? responseError(400, errorBody(400, 'search_phase_execution_exception')) : { hits: { hits: [] } };
    });
    const store = new ElasticsearchListingStore(cluster.client, { alias: 'annonces', deepPagesAtOnce: 1 });
    await store.search(page(deepPage)).then(
      () => expect.fail('the read should fail'),
      () => undefined,
    );
    fail = false;
    expect((await store.search(page(deepPage))).items).to.deep.equal([]);
  });

  describe('over HTTP [elasticsearch]', function () {
    let app: TestApp;
    let key: string;
    before(async function () {
      if (elasticsearchMissing()) {
        if (process.env.REQUIRE_ALL_ENGINES) throw new Error(`elasticsearch is required here: ${elasticsearchMissing()}`);
        return this.skip();
      }
      // No deep page at all may be read: every one is refused, whatever the timing.
      app = await startTestApp({ engine: 'elasticsearch', deps: { listings: await openTestElasticsearchStore('deep', { deepPagesAtOnce: 0 }) } });
      key = await app.newKey();
    });
    after(async () => app?.close());

    it('answers a deep page it cannot read now with a fast 503 and Retry-After, and shallow pages with 200', async () => {
      const [deep, shallow, cursorless] = await Promise.all([
        app.get(`/annonces?page=${deepPage}&page_size=100`, key),
        app.get('/annonces?page=3&page_size=100', key),
        app.get('/annonces?page=1000&page_size=100', key),
      ]);
      for (const refused of [deep, cursorless]) {
        expect(refused.status).to.equal(503);
        expect(refused.headers.get('retry-after')).to.match(/^[1-9]\d*$/);
        expect(refused.body.code).to.equal('SERVICE_UNAVAILABLE');
        expect(refused.body.error).to.match(/next_cursor/);
      }
      expect(shallow.status).to.equal(200);
    });
  });
});
