/**
 * A cluster that is down or refusing must surface as the port's StoreUnavailableError, so the API
 * answers 503 (and the feed `next_cursor: null`, docs/api.md, feed rules), while a body the cluster
 * rejects as malformed stays a plain error (a bug of ours, a 500 that shows in the logs).
 */
import { expect } from 'chai';
import { StoreUnavailableError } from '../../../src/core/ports/store-unavailable.js';
import { ElasticsearchListingStore } from '../../../src/adapters/elasticsearch/listing-store.js';
import { createElasticsearchClient } from '../../../src/adapters/elasticsearch/client.js';
import { openElasticsearchStore } from '../../../src/adapters/elasticsearch/open.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { closedPort, connectionError, errorBody, mockCluster, responseError } from './mock-cluster.js';

const ALL = { enteredFrom: 0, eligibleSites: null };
const SEARCH = { filter: {}, scope: ALL, grouped: true, sort: 'recent' as const, pageSize: 10, page: 1, after: null };

async function expectUnavailable(promise: Promise<unknown>): Promise<StoreUnavailableError> {
  try {
    await promise;
  } catch (error) {
    expect(error, String(error)).to.be.instanceOf(StoreUnavailableError);
    expect((error as StoreUnavailableError).backend).to.equal('elasticsearch');
    return error as StoreUnavailableError;
  }
  throw new Error('expected StoreUnavailableError, got a result');
}

describe('Elasticsearch store: cluster unavailable', () => {
  describe('nothing listens at ES_URL (a real refused connection)', () => {
    let store: ElasticsearchListingStore;
    before(async () => {
      const client = createElasticsearchClient({ url: `http://127.0.0.1:${await closedPort()}` }, { maxRetries: 0, requestTimeout: 2000 });
      store = new ElasticsearchListingStore(client, { alias: 'annonces' });
    });
    after(() => store.close());

    it('every read is StoreUnavailableError', async () => {
      await expectUnavailable(store.search(SEARCH));
      await expectUnavailable(store.map({ filter: {}, scope: ALL, grouped: true, bbox: { south: 45, west: 4, north: 46, east: 5 }, limit: 10 }));
      await expectUnavailable(store.feed({ filter: {}, scope: ALL, changedUntil: Date.now(), pageSize: 10, after: null }));
      await expectUnavailable(store.withdrawn({ scope: ALL, changedUntil: Date.now(), pageSize: 10, after: null }));
      await expectUnavailable(store.get('seloger:1'));
      await expectUnavailable(store.getMany(['seloger:1']));
      await expectUnavailable(store.count());
    });

    it('opening the store still succeeds (the service starts degraded) and says why', async () => {
      const problems: unknown[] = [];
      const url = `http://127.0.0.1:${await closedPort()}`;
      const opened = await openElasticsearchStore({ url, alias: 'annonces' }, { client: { maxRetries: 0 }, onStartupProblem: (e) => problems.push(e) });
      expect(problems).to.have.length(1);
      expect((await opened.health()).ok).to.equal(false);
      await opened.close();
    });

    it('health says so instead of throwing', async () => {
      const health = await store.health();
      expect(health).to.include({ ok: false, backend: 'elasticsearch' });
      expect(health.detail).to.match(/ECONNREFUSED|connect/i);
    });
  });

  describe('the cluster answers with an error status (mock)', () => {
    const cases: [string, () => Error][] = [
      ['503 (no master, shards unavailable)', () => responseError(503, errorBody(503, 'search_phase_execution_exception', 'all shards failed'))],
      ['502 from a proxy', () => responseError(502, 'Bad Gateway')],
      ['429 (search thread pool full)', () => responseError(429, errorBody(429, 'es_rejected_execution_exception'))],
      ['401 (bad credentials)', () => responseError(401, errorBody(401, 'security_exception', 'unable to authenticate user'))],
      ['404 index_not_found (alias not created yet)', () => responseError(404, errorBody(404, 'index_not_found_exception', 'no such index [annonces]'))],
      ['a connection error', () => connectionError()],
    ];
    for (const [label, error] of cases) {
      it(`${label} -> StoreUnavailableError`, async () => {
        const cluster = mockCluster();
        cluster.on('POST', '/annonces/_search', error);
        await expectUnavailable(new ElasticsearchListingStore(cluster.client, { alias: 'annonces' }).search(SEARCH));
      });
    }

    it('400 on our own body is not "unavailable": it stays an error that shows as a 500', async () => {
      const cluster = mockCluster();
      cluster.on('POST', '/annonces/_search', () => responseError(400, errorBody(400, 'parsing_exception', 'unknown query [multi_matchh]')));
      const error = await new ElasticsearchListingStore(cluster.client, { alias: 'annonces' }).search(SEARCH).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(Error);
      expect(error).to.not.be.instanceOf(StoreUnavailableError);
    });

    it('a missing document is null, a missing index is unavailable', async () => {
      const cluster = mockCluster();
      cluster.on('GET', '/annonces/_doc/:id', (params) =>
        params.path.includes('nothing')
          ? responseError(404, { _index: 'annonces-v1', _id: 'nope:nothing', found: false })
          : responseError(404, errorBody(404, 'index_not_found_exception')),
      );
      const store = new ElasticsearchListingStore(cluster.client, { alias: 'annonces' });
      expect(await store.get('nope:nothing')).to.equal(null);
      await expectUnavailable(store.get('seloger:1'));
    });
  });

  describe('through the HTTP API (the real service wired to a dead cluster)', function () {
    this.timeout(30_000);
    let app: TestApp;
    let key: string;
    before(async () => {
      const client = createElasticsearchClient({ url: `http://127.0.0.1:${await closedPort()}` }, { maxRetries: 0, requestTimeout: 2000 });
      app = await startTestApp({ deps: { listings: new ElasticsearchListingStore(client, { alias: 'annonces' }) } });
      key = await app.newKey('sur_mesure');
    });
    after(() => app?.close());

    it('GET /annonces answers 503 SERVICE_UNAVAILABLE', async () => {
      const { status, body } = await app.get('/annonces', key);
      expect(status).to.equal(503);
      expect(body.code).to.equal('SERVICE_UNAVAILABLE');
    });

    it('GET /annonces/feed answers 503 with next_cursor null (docs/api.md, feed rules)', async () => {
      const { status, body } = await app.get('/annonces/feed', key);
      expect(status).to.equal(503);
      expect(body).to.include({ next_cursor: null, has_more: false, count: 0 });
    });

    it('GET /health reports the listings store down', async () => {
      const { status, body } = await app.get('/health');
      expect(status).to.equal(503);
      expect(body.checks.listings).to.include({ ok: false, backend: 'elasticsearch' });
    });
  });
});
