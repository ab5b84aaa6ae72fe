/** Index generations behind the alias: first creation, reindex into the next generation, atomic swap. */
import { expect } from 'chai';
import { ensureIndex, reindex, ReindexError, bulkLoadSettings } from '../../../src/adapters/elasticsearch/aliases.js';
import { loadIndexDefinition } from '../../../src/adapters/elasticsearch/index-definition.js';
import { toSource } from '../../../src/adapters/elasticsearch/document.js';
import { ElasticsearchListingStore } from '../../../src/adapters/elasticsearch/listing-store.js';
import { makeListings } from '../../support/fixtures.js';
import { actionsOf, bulkResponse, errorBody, hitOf, mockCluster, responseError, type MockCluster } from './mock-cluster.js';

const definition = loadIndexDefinition();
const ack = () => ({ acknowledged: true });

describe('Elasticsearch index generations and alias', () => {
  describe('ensureIndex', () => {
    it('creates annonces-v1 with the mapping file and the alias in the same request', async () => {
      const cluster = mockCluster();
      cluster.on('GET', '/_alias/annonces', () => responseError(404, { error: 'alias [annonces] missing', status: 404 }));
      cluster.on('GET', '/_resolve/index/annonces-v*', () => ({ indices: [], aliases: [], data_streams: [] }));
      cluster.on('PUT', '/annonces-v1', () => ({ acknowledged: true, shards_acknowledged: true, index: 'annonces-v1' }));
      expect(await ensureIndex(cluster.client, 'annonces')).to.equal('annonces-v1');
      const create = cluster.requests.find((r) => r.method === 'PUT')!;
      expect(create.body).to.deep.equal({ settings: definition.settings, mappings: definition.mappings, aliases: { annonces: { is_write_index: true } } });
    });

    it('does nothing when the alias exists', async () => {
      const cluster = mockCluster();
      cluster.on('GET', '/_alias/annonces', () => ({ 'annonces-v3': { aliases: { annonces: { is_write_index: true } } } }));
      expect(await ensureIndex(cluster.client, 'annonces')).to.equal('annonces-v3');
      expect(cluster.requests).to.have.length(1);
    });

    it('two processes starting together: the loser\'s "already exists" is success', async () => {
      const cluster = mockCluster();
      cluster.on('GET', '/_alias/annonces', () => responseError(404, { error: 'alias [annonces] missing', status: 404 }));
      cluster.on('GET', '/_resolve/index/annonces-v*', () => ({ indices: [], aliases: [], data_streams: [] }));
      cluster.on('PUT', '/annonces-v1', () =>
        responseError(400, errorBody(400, 'resource_already_exists_exception', 'index [annonces-v1/abc] already exists')),
      );
      expect(await ensureIndex(cluster.client, 'annonces')).to.equal('annonces-v1');
    });
  });

  describe('reindex', () => {
    const stored = makeListings({ count: 5, seed: 13 });
    const latest = { ...stored[4], change_seq: stored[4].change_seq + 100 };

    function liveCluster(options: { targetCount?: number; failId?: string; health?: 'yellow' } = {}): MockCluster {
      const cluster = mockCluster();
      cluster.on('GET', '/_alias/annonces', () => ({ 'annonces-v1': { aliases: { annonces: { is_write_index: true } } } }));
      // v3 exists (closed, from an abandoned attempt): the next generation is 4, whatever is live.
      cluster.on('GET', '/_resolve/index/annonces-v*', () => ({
        indices: [
          { name: 'annonces-v1', aliases: ['annonces'], attributes: ['open'] },
          { name: 'annonces-v3', attributes: ['closed'] },
        ],
        aliases: [],
        data_streams: [],
      }));
      cluster.on('PUT', '/annonces-v4', ack);
      // Two shards; shard 1 received one write (the last listing, rewritten) after the copy began.
      cluster.on('GET', '/annonces-v1/_stats/docs', () => ({
        indices: {
          'annonces-v1': {
            shards: { 0: [{ routing: { primary: true }, seq_no: { max_seq_no: 2 } }], 1: [{ routing: { primary: true }, seq_no: { max_seq_no: 1 } }] },
          },
        },
      }));
      cluster.on('GET', '/annonces-v1/_refresh', () => ({ _shards: { total: 2, successful: 2, failed: 0 } }));
      cluster.on('POST', '/annonces-v1/_search', (params) => {
        const shard = (params.querystring as unknown as Record<string, string>)?.preference;
        const caughtUp = shard === '_shards:1' && !params.body.search_after ? [latest] : [];
        return { hits: { hits: caughtUp.map((l) => hitOf(JSON.parse(JSON.stringify(toSource(l))), [2])) } };
      });
      cluster.on('POST', '/annonces-v1/_pit', () => ({ id: 'pit-1' }));
      // A slice of the point in time: the listings whose position modulo `max` is its id, in position order.
      cluster.on('POST', '/_search', (params) => {
        const { slice, size, search_after: after } = params.body as { slice?: { id: string; max: number }; size: number; search_after?: number[] };
        const positions = stored.map((_, i) => i).filter((i) => !slice || i % slice.max === Number(slice.id));
        const page = positions.filter((i) => !after || i > after[0]).slice(0, size);
        return { pit_id: 'pit-1', hits: { hits: page.map((i) => hitOf(JSON.parse(JSON.stringify(toSource(stored[i]))), [i])) } };
      });
      cluster.on('DELETE', '/_pit', () => ({ succeeded: true, num_freed: 1 }));
      cluster.on('POST', '/_bulk', (params) =>
        bulkResponse(params.body, (id) => (id === options.failId ? { status: 400, type: 'mapper_parsing_exception' } : 'ok')),
      );
      cluster.on('PUT', '/annonces-v4/_settings', ack);
      cluster.on('GET', '/_cluster/health/annonces-v4', () => ({ status: options.health ?? 'green', timed_out: options.health !== undefined }));
      cluster.on('GET', '/annonces-v1,annonces-v4/_refresh', () => ({ _shards: { total: 2, successful: 2, failed: 0 } }));
      cluster.on('GET', '/annonces-v1/_count', () => ({ count: stored.length }));
      cluster.on('GET', '/annonces-v4/_count', () => ({ count: options.targetCount ?? stored.length }));
      cluster.on('POST', '/_aliases', ack);
      return cluster;
    }

    it('builds the next generation relaxed, copies a point in time in slices with every version, restores the settings, swaps once green', async () => {
      const cluster = liveCluster();
      const report = await reindex(cluster.client, { alias: 'annonces', pageSize: 2, slices: 2 });
      expect(report).to.deep.equal({ from: 'annonces-v1', to: 'annonces-v4', copied: 6, caught_up: 1 });
      const calls = cluster.requests.map((r) => `${r.method} ${r.path}`);
      // The slices' pages and bulks interleave; around them the order is fixed.
      const copy = calls.slice(5, calls.indexOf('DELETE /_pit'));
      expect(copy.filter((c) => c === 'POST /_search')).to.have.length(4);
      expect(copy.every((c) => c === 'POST /_search' || c === 'POST /_bulk')).to.equal(true);
      const searches = cluster.requests.filter((r) => r.path === '/_search').map((r) => r.body);
      expect(searches.every((b) => b.pit.id === 'pit-1' && b.sort[0] === '_shard_doc')).to.equal(true);
      expect(new Set(searches.map((b) => b.slice.id))).to.deep.equal(new Set(['0', '1']));
      expect([...calls.slice(0, 5), ...calls.slice(calls.indexOf('DELETE /_pit'))]).to.deep.equal([
        'GET /_alias/annonces',
        'GET /_resolve/index/annonces-v*',
        'PUT /annonces-v4',
        'GET /annonces-v1/_stats/docs',
        'POST /annonces-v1/_pit',
        'DELETE /_pit',
        // The catch-up: each shard's writes above its mark, copied again.
        'GET /annonces-v1/_refresh',
        'POST /annonces-v1/_search',
        'POST /annonces-v1/_search',
        'POST /_bulk',
        'PUT /annonces-v4/_settings',
        'GET /_cluster/health/annonces-v4',
        'GET /annonces-v1,annonces-v4/_refresh',
        'GET /annonces-v1/_count',
        'GET /annonces-v4/_count',
        'POST /_aliases',
      ]);
      const created = cluster.requests[2].body;
      expect(created.mappings).to.deep.equal(definition.mappings);
      expect(created.settings.index).to.include({ refresh_interval: '-1', number_of_replicas: 0, auto_expand_replicas: 'false' });
      expect(created.settings).to.deep.equal(bulkLoadSettings(definition));
      const copied = cluster.requests.filter((r) => r.path === '/_bulk').flatMap((r) => actionsOf(r.body));
      const byId = (a: { _id: string }, b: { _id: string }) => a._id.localeCompare(b._id);
      // Every listing from the point in time, then the one rewritten during the copy at its new version.
      expect(copied.map((p) => p.action).sort(byId)).to.deep.equal(
        [...stored, latest].map((l) => ({ _index: 'annonces-v4', _id: l.id, version: l.change_seq, version_type: 'external_gte' })).sort(byId),
      );
      expect(copied.at(-1)!.action.version).to.equal(latest.change_seq);
      expect(cluster.requests.find((r) => r.path === '/annonces-v4/_settings')!.body).to.deep.equal({
        index: { refresh_interval: '1s', auto_expand_replicas: '0-1' },
      });
      expect(cluster.requests.at(-1)!.body).to.deep.equal({
        actions: [{ remove: { index: 'annonces-v1', alias: 'annonces' } }, { add: { index: 'annonces-v4', alias: 'annonces', is_write_index: true } }],
      });
    });

    it('does not move the alias when the counts differ (the indexer was writing)', async () => {
      const cluster = liveCluster({ targetCount: 4 });
      const error = await reindex(cluster.client, { alias: 'annonces', pageSize: 10 }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(ReindexError);
      expect(cluster.requests.some((r) => r.path === '/_aliases')).to.equal(false);
    });

    it('does not move the alias while the new generation is not green', async () => {
      const cluster = liveCluster({ health: 'yellow' });
      const error = await reindex(cluster.client, { alias: 'annonces', pageSize: 10, greenTimeout: '1s' }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(ReindexError);
      expect((error as Error).message).to.match(/yellow, not green/);
      expect(cluster.requests.some((r) => r.path === '/_aliases')).to.equal(false);
    });

    it('does not move the alias when a document could not be copied', async () => {
      const cluster = liveCluster({ failId: stored[2].id });
      const error = await reindex(cluster.client, { alias: 'annonces', pageSize: 10 }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(ReindexError);
      expect((error as ReindexError).failures.map((f) => f.id)).to.deep.equal([stored[2].id]);
      expect(cluster.requests.some((r) => r.path === '/_aliases')).to.equal(false);
    });
  });

  describe('refresh relaxed during a big load', () => {
    it('turns periodic refresh off on the live index, restores the mapping file interval and refreshes once, even when the load fails', async () => {
      const cluster = mockCluster();
      cluster.on('GET', '/_alias/annonces', () => ({ 'annonces-v2': { aliases: { annonces: { is_write_index: true } } } }));
      cluster.on('PUT', '/annonces-v2/_settings', ack);
      cluster.on('GET', '/annonces/_refresh', () => ({ _shards: { total: 1, successful: 1, failed: 0 } }));
      const store = new ElasticsearchListingStore(cluster.client, { alias: 'annonces' });
      const error = await store
        .duringBulkLoad(async () => {
          throw new Error('load interrupted');
        })
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect((error as Error).message).to.equal('load interrupted');
      expect(cluster.requests.map((r) => [`${r.method} ${r.path}`, r.body])).to.deep.equal([
        ['GET /_alias/annonces', null],
        ['PUT /annonces-v2/_settings', { index: { refresh_interval: '-1' } }],
        ['PUT /annonces-v2/_settings', { index: { refresh_interval: definition.settings.index.refresh_interval } }],
        ['GET /annonces/_refresh', null],
      ]);
    });
  });
});
