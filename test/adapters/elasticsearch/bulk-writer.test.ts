/**
 * Indexer writes against a mocked _bulk: retries on 429/5xx with backoff (only what failed), failures
 * that cannot succeed reported once and never retried, versions carried on every action.
 */
import { expect } from 'chai';
import { gunzipSync } from 'node:zlib';
import type { StoredListing } from '../../../src/core/model/stored.js';
import { StoreUnavailableError } from '../../../src/core/ports/store-unavailable.js';
import { BulkWriter, type DocumentFailure } from '../../../src/adapters/elasticsearch/bulk-writer.js';
import { ElasticsearchListingStore } from '../../../src/adapters/elasticsearch/listing-store.js';
import { toOlderSource, toSource } from '../../../src/adapters/elasticsearch/document.js';
import { makeListings } from '../../support/fixtures.js';
import { actionsOf, bulkResponse, connectionError, errorBody, idsOf, mockCluster, responseError } from './mock-cluster.js';

const listings: StoredListing[] = makeListings({ count: 6, seed: 21 });
const ids = listings.map((l) => l.id);

/** A writer that never really sleeps but records the delays it asked for. */
function writerFor(client: ReturnType<typeof mockCluster>['client'], extra: Partial<ConstructorParameters<typeof BulkWriter>[1]> = {}) {
  const delays: number[] = [];
  const writer = new BulkWriter(client, {
    index: 'annonces',
    baseDelayMs: 100,
    maxDelayMs: 1000,
    random: () => 0.5,
    // One request an attempt unless a test asks for more (the retry tests count requests).
    concurrency: 1,
    sleep: async (ms) => {
      delays.push(ms);
    },
    ...extra,
  });
  return { writer, delays };
}

describe('Elasticsearch bulk writer', () => {
  it('sends each listing as an index action with version = change_seq (external_gte) and the mapped document', async () => {
    const cluster = mockCluster();
    cluster.on('POST', '/_bulk', (params) => bulkResponse(params.body, () => 'ok'));
    const { writer } = writerFor(cluster.client);
    const report = await writer.write(listings);
    expect(report).to.deep.include({ written: 6, failures: [], retried: 0, attempts: 1 });
    const pairs = actionsOf(cluster.requests[0].body);
    expect(pairs.map((p) => p.action)).to.deep.equal(
      listings.map((l) => ({ _index: 'annonces', _id: l.id, version: l.change_seq, version_type: 'external_gte', require_alias: true })),
    );
    // The mocked index shows no mapping: the documents an index of an older mapping takes.
    expect(pairs.map((p) => p.document)).to.deep.equal(listings.map((l) => JSON.parse(JSON.stringify(toOlderSource(l)))));
  });

  it('429 on the whole bulk request, then success: the batch is sent again after a backoff', async () => {
    const cluster = mockCluster();
    let calls = 0;
    cluster.on('POST', '/_bulk', (params) =>
      ++calls === 1
        ? responseError(429, errorBody(429, 'es_rejected_execution_exception', 'rejected execution of coordinating operation'))
        : bulkResponse(params.body, () => 'ok'),
    );
    const { writer, delays } = writerFor(cluster.client);
    const report = await writer.write(listings);
    expect(calls).to.equal(2);
    expect(idsOf(cluster.requests[1].body)).to.deep.equal(ids);
    expect(report).to.deep.include({ written: 6, failures: [], retried: 6, attempts: 2 });
    expect(delays).to.deep.equal([75]); // base 100 ms, half fixed + half jitter (random 0.5)
  });

  it('items refused with 429 are retried alone, the others are not sent twice', async () => {
    const cluster = mockCluster();
    let calls = 0;
    cluster.on('POST', '/_bulk', (params) => {
      calls++;
      return bulkResponse(params.body, (id) =>
        calls === 1 && (id === ids[1] || id === ids[4]) ? { status: 429, type: 'es_rejected_execution_exception' } : 'ok',
      );
    });
    const { writer } = writerFor(cluster.client);
    const report = await writer.write(listings);
    expect(idsOf(cluster.requests[1].body)).to.deep.equal([ids[1], ids[4]]);
    expect(report).to.deep.include({ written: 6, failures: [], retried: 2, attempts: 2 });
  });

  it('a 5xx item (shard unavailable) is retried like a 429', async () => {
    const cluster = mockCluster();
    let calls = 0;
    cluster.on('POST', '/_bulk', (params) => {
      calls++;
      return bulkResponse(params.body, (id) => (calls === 1 && id === ids[2] ? { status: 503, type: 'unavailable_shards_exception' } : 'ok'));
    });
    const report = await writerFor(cluster.client).writer.write(listings);
    expect(report).to.deep.include({ written: 6, failures: [], attempts: 2 });
  });

  it('partial failure: only the documents that failed are reported, with type and reason, and not retried', async () => {
    const cluster = mockCluster();
    cluster.on('POST', '/_bulk', (params) =>
      bulkResponse(params.body, (id) =>
        id === ids[3] ? { status: 400, type: 'mapper_parsing_exception', reason: 'failed to parse field [content.price] of type [double]' } : 'ok',
      ),
    );
    const report = await writerFor(cluster.client).writer.write(listings);
    expect(cluster.requests).to.have.length(1);
    expect(report.written).to.equal(5);
    expect(report.failures.map(({ listing: _listing, ...rest }) => rest)).to.deep.equal([
      { id: ids[3], status: 400, type: 'mapper_parsing_exception', reason: 'failed to parse field [content.price] of type [double]' },
    ]);
    expect(report.failures[0].listing).to.equal(listings[3]);
  });

  it('version conflict (a newer write is already stored): reported once, never retried', async () => {
    const cluster = mockCluster();
    cluster.on('POST', '/_bulk', (params) =>
      bulkResponse(params.body, (id) =>
        id === ids[0]
          ? {
              status: 409,
              type: 'version_conflict_engine_exception',
              reason: `[${ids[0]}]: version conflict, current version [90] is higher than the one provided [1]`,
            }
          : 'ok',
      ),
    );
    const report = await writerFor(cluster.client).writer.write(listings);
    expect(cluster.requests).to.have.length(1);
    expect(report.failures.map((f) => [f.id, f.status, f.type])).to.deep.equal([[ids[0], 409, 'version_conflict_engine_exception']]);
    expect(report.written).to.equal(5);
  });

  it('a cluster down on every attempt: StoreUnavailableError after maxAttempts, with growing delays', async () => {
    const cluster = mockCluster();
    cluster.on('POST', '/_bulk', () => connectionError());
    const { writer, delays } = writerFor(cluster.client, { maxAttempts: 4 });
    const error = await writer.write(listings).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(StoreUnavailableError);
    expect(cluster.requests).to.have.length(4);
    expect(delays).to.deep.equal([75, 150, 300]);
  });

  it('items still refused for overload after every attempt are reported, not lost', async () => {
    const cluster = mockCluster();
    cluster.on('POST', '/_bulk', (params) =>
      bulkResponse(params.body, (id) => (id === ids[5] ? { status: 429, type: 'es_rejected_execution_exception' } : 'ok')),
    );
    const report = await writerFor(cluster.client, { maxAttempts: 3 }).writer.write(listings);
    expect(cluster.requests).to.have.length(3);
    expect(report.failures.map((f) => [f.id, f.status])).to.deep.equal([[ids[5], 429]]);
    expect(report.written).to.equal(5);
  });

  it('a request the cluster rejects as malformed (400) is an error at once, not retried', async () => {
    const cluster = mockCluster();
    cluster.on('POST', '/_bulk', () => responseError(400, errorBody(400, 'illegal_argument_exception', 'Malformed action/metadata line')));
    const error = await writerFor(cluster.client)
      .writer.write(listings)
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).to.be.instanceOf(Error).and.not.instanceOf(StoreUnavailableError);
    expect(cluster.requests).to.have.length(1);
  });

  it('splits requests by bytes (flushBytes), never by a fixed count', async () => {
    const cluster = mockCluster();
    cluster.on('POST', '/_bulk', (params) => bulkResponse(params.body, () => 'ok'));
    const many = makeListings({ count: 40, seed: 4 });
    const oneDocument = Buffer.byteLength(JSON.stringify(toSource(many[0])));
    const report = await writerFor(cluster.client, { flushBytes: oneDocument * 5, concurrency: 1 }).writer.write(many);
    expect(report.written).to.equal(40);
    expect(cluster.requests.length).to.be.within(6, 10);
    expect(cluster.requests.flatMap((r) => idsOf(r.body)).sort()).to.deep.equal(many.map((l) => l.id).sort());
  });

  it('keeps `concurrency` requests in flight, never more, and a failed one sends the attempt again', async () => {
    const cluster = mockCluster();
    let calls = 0;
    cluster.on('POST', '/_bulk', (params) =>
      ++calls === 3 ? responseError(503, errorBody(503, 'unavailable_shards_exception')) : bulkResponse(params.body, () => 'ok'),
    );
    let inFlight = 0;
    let most = 0;
    cluster.client.diagnostic.on('request', () => {
      inFlight++;
      most = Math.max(most, inFlight);
    });
    cluster.client.diagnostic.on('response', () => {
      inFlight--;
    });
    const many = makeListings({ count: 40, seed: 5 });
    const oneDocument = Buffer.byteLength(JSON.stringify(toSource(many[0])));
    const report = await writerFor(cluster.client, { flushBytes: oneDocument * 5, concurrency: 2 }).writer.write(many);
    expect(most).to.equal(2);
    // Every listing sent again, and counted written by the second attempt alone.
    expect(report).to.deep.include({ written: 40, failures: [], attempts: 2, retried: 40 });
  });

  it('cuts a batch into `concurrency` requests however small it is in bytes, sent side by side', async () => {
    const cluster = mockCluster();
    cluster.on('POST', '/_bulk', (params) => bulkResponse(params.body, () => 'ok'));
    let inFlight = 0;
    let most = 0;
    cluster.client.diagnostic.on('request', () => {
      most = Math.max(most, ++inFlight);
    });
    cluster.client.diagnostic.on('response', () => {
      inFlight--;
    });
    const many = makeListings({ count: 41, seed: 6 });
    const report = await writerFor(cluster.client, { concurrency: 3 }).writer.write(many);
    expect(report.written).to.equal(41);
    expect(cluster.requests.map((r) => idsOf(r.body).length)).to.deep.equal([14, 14, 13]);
    expect(most).to.equal(3);
  });

  it('writes one operation per id, the last state given', async () => {
    const cluster = mockCluster();
    cluster.on('POST', '/_bulk', (params) => bulkResponse(params.body, () => 'ok'));
    const newer = { ...listings[0], change_seq: listings[0].change_seq + 100 };
    await writerFor(cluster.client).writer.write([listings[0], listings[1], newer]);
    const pairs = actionsOf(cluster.requests[0].body);
    expect(pairs.map((p) => [p.action._id, p.action.version])).to.deep.equal([
      [newer.id, newer.change_seq],
      [listings[1].id, listings[1].change_seq],
    ]);
  });
});

/** The batch journal's requests (write-journal.ts): the state index, the journal written, then removed. */
function acceptJournal(cluster: ReturnType<typeof mockCluster>) {
  cluster.on('PUT', '/annonces-state', () => ({ acknowledged: true }));
  cluster.on('PUT', '/annonces-state/_doc/batch-journal', () => ({ result: 'created', _seq_no: 0, _primary_term: 1 }));
  cluster.on('DELETE', '/annonces-state/_doc/batch-journal', () => ({ result: 'deleted' }));
}
const JOURNAL = ['PUT /annonces-state', 'PUT /annonces-state/_doc/batch-journal'];

describe('Elasticsearch store upsertMany: refused documents go to the callback (the indexer rejects file)', () => {
  function failingCluster() {
    const cluster = mockCluster();
    acceptJournal(cluster);
    cluster.on('POST', '/_bulk', (params) =>
      bulkResponse(params.body, (id) => (id === ids[2] ? { status: 400, type: 'mapper_parsing_exception', reason: 'bad value' } : 'ok')),
    );
    cluster.on('GET', '/annonces/_refresh', () => ({ _shards: { total: 1, successful: 1, failed: 0 } }));
    return cluster;
  }

  it('reports only the failed documents to onDocumentFailure, and writes the rest', async () => {
    const cluster = failingCluster();
    const reported: DocumentFailure[] = [];
    const store = new ElasticsearchListingStore(cluster.client, {
      alias: 'annonces',
      onDocumentFailure: (f) => {
        reported.push(f);
      },
    });
    await store.upsertMany(listings);
    expect(reported.map((f) => [f.id, f.type, f.reason])).to.deep.equal([[ids[2], 'mapper_parsing_exception', 'bad value']]);
    expect(store.lastWrite?.written).to.equal(5);
  });

  it('returns the refused documents with their reason (after writing the rest), for the rejects file', async () => {
    const cluster = failingCluster();
    const store = new ElasticsearchListingStore(cluster.client, { alias: 'annonces' });
    const failures = await store.upsertMany(listings);
    expect(failures.map((f) => f.id)).to.deep.equal([ids[2]]);
    expect(failures[0].reason).to.contain('mapper_parsing_exception');
    expect(store.lastWrite?.written).to.equal(5);
  });

  it('refreshOnWrite refreshes the alias after the bulk, so the next search sees the writes', async () => {
    const cluster = mockCluster();
    acceptJournal(cluster);
    cluster.on('POST', '/_bulk', (params) => bulkResponse(params.body, () => 'ok'));
    cluster.on('GET', '/annonces/_refresh', () => ({ _shards: { total: 1, successful: 1, failed: 0 } }));
    await new ElasticsearchListingStore(cluster.client, { alias: 'annonces', refreshOnWrite: true }).upsertMany(listings);
    expect(cluster.requests.map((r) => `${r.method} ${r.path}`)).to.deep.equal([
      ...JOURNAL,
      // The store's writer sends a batch as two requests side by side (two write threads of the node).
      'POST /_bulk',
      'POST /_bulk',
      'DELETE /annonces-state/_doc/batch-journal',
      'GET /annonces/_refresh',
    ]);
    // The journal holds the whole batch, gzipped, until the bulk is done.
    const journal = cluster.requests[1].body as { listings: string };
    expect(JSON.parse(gunzipSync(Buffer.from(journal.listings, 'base64')).toString('utf8')).map((l: { id: string }) => l.id)).to.deep.equal(ids);
  });
});
