/**
 * Two nodes, one replica: a node killed during a load and during queries. The cluster is started by
 * scripts/elasticsearch.sh on ports of its own (ES_TWO_NODE_PORT, default 9210/9211), so it never
 * touches the node of ES_URL. It runs wherever that script can run (CI runs it); set
 * SKIP_TWO_NODE_TEST=1 to leave it out of a local run.
 *
 * A clean load and a load that loses node 2 half-way must give the same catalogue (a digest of every
 * listing's state), searches must keep being answered meanwhile, and the indexer must finish.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import type { Client } from '@elastic/elasticsearch';
import { rawRecord, writeNdjson } from '../../support/raw.js';
import { startTool } from '../../support/child.js';
import { deleteAliasIndices, testAlias } from '../../support/elasticsearch.js';
import { createElasticsearchClient } from '../../../src/adapters/elasticsearch/client.js';
import { ensureIndex, indicesOf } from '../../../src/adapters/elasticsearch/aliases.js';
import { ElasticsearchListingStore } from '../../../src/adapters/elasticsearch/listing-store.js';
import { loadConfig } from '../../../src/config/config.js';
import { createService } from '../../../src/service.js';
import { createKey } from '../../../src/admin/commands.js';
import type { ListingSource } from '../../../src/adapters/elasticsearch/document.js';

const run = promisify(execFile);
const PORT = Number(process.env.ES_TWO_NODE_PORT ?? 9210);
const URL_ = `http://127.0.0.1:${PORT}`;
const SCRIPT = ['scripts/elasticsearch.sh'];
const scriptEnv = { ...process.env, ES_HTTP_PORT: String(PORT) };
const RECORDS = 4000;
const SITES = ['seloger', 'leboncoin', 'bienici', 'pap'];

/**
 * The catalogue as the API would serve it: each listing's id, content, status and group fields, in
 * id order. Times and sequence numbers of the writes differ between two loads and are left out.
 */
async function catalogueDigest(client: Client, alias: string): Promise<{ count: number; digest: string }> {
  await client.indices.refresh({ index: alias });
  const hash = createHash('sha256');
  let count = 0;
  let after: (string | number)[] | undefined;
  for (;;) {
    const page = await client.search<ListingSource>({
      index: alias,
      size: 1000,
      sort: [{ id: 'asc' }],
      track_total_hits: false,
      ...(after ? { search_after: after } : {}),
    });
    for (const hit of page.hits.hits) {
      const s = hit._source!;
      hash.update(JSON.stringify([s.id, s.status, s.content, s.dedup_key, s.group_sites_ahead, s.group_members, s.completed_from, s.content_hash]));
      count++;
    }
    if (page.hits.hits.length < 1000) return { count, digest: hash.digest('hex') };
    after = page.hits.hits.at(-1)!.sort as (string | number)[];
  }
}

function startLoad(alias: string, file: string, dir: string) {
  return startTool(['indexer/cli.ts', 'load', file], { ...process.env, ES_URL: URL_, ES_INDEX_ALIAS: alias, DATA_DIR: dir, REDIS_URL: '' });
}

describe('Elasticsearch, two nodes and one replica: a node killed during a load and queries', function () {
  this.timeout(600_000);
  let client: Client;
  const cleanAlias = testAlias('clean');
  const failoverAlias = testAlias('failover');
  const dir = mkdtempSync(path.join(tmpdir(), 'two-nodes-'));
  const file = writeNdjson(
    Array.from({ length: RECORDS }, (_, i) => rawRecord(i, { reference: `N${i}` })),
    'in.ndjson',
    dir,
  );

  before(async function () {
    if (process.env.SKIP_TWO_NODE_TEST) return this.skip();
    await run('bash', [...SCRIPT, 'start', '--nodes', '2'], { env: scriptEnv });
    client = createElasticsearchClient({ url: URL_ }, { requestTimeout: 60_000 });
  });
  after(async () => {
    if (client) for (const alias of [cleanAlias, failoverAlias]) await deleteAliasIndices(client, alias).catch(() => {});
    await client?.close();
    if (!process.env.SKIP_TWO_NODE_TEST) await run('bash', [...SCRIPT, 'stop'], { env: scriptEnv });
  });

  it('keeps answering searches, the indexer finishes, and the catalogue equals a clean load', async () => {
    const cluster = await client.cluster.health();
    expect(cluster.number_of_data_nodes).to.equal(2);

    await ensureIndex(client, cleanAlias);
    const clean = await startLoad(cleanAlias, file, dir).done;
    expect(clean.code, clean.stderr).to.equal(0);
    const expected = await catalogueDigest(client, cleanAlias);
    expect(expected.count).to.equal(RECORDS);

    // The API on the same cluster, asked without a pause while the second load runs.
    const config = loadConfig({
      DATA_DIR: dir,
      ES_URL: URL_,
      ES_INDEX_ALIAS: failoverAlias,
      LOG_LEVEL: 'silent',
      CURSOR_SECRET: 's',
      FEED_SETTLE_SECONDS: '0',
    });
    const service = await createService(config, { logger: pino({ level: 'silent' }) });
    const server = await service.listen(0, '127.0.0.1');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
    const { key } = await createKey(service.deps.access, service.deps.offers, {
      account: 'failover',
      offer: 'sur_mesure',
      createdAt: '2020-01-01',
      historyDays: 0,
    });
    const statuses: { at: number; status: number }[] = [];
    let querying = true;
    const queries = (async () => {
      while (querying) {
        const status = await fetch(`${base}/annonces?page_size=20&q=lumineux`, { headers: { 'X-Api-Key': key } }).then(
          (r) => r.status,
          () => 0,
        );
        statuses.push({ at: Date.now(), status });
      }
    })();

    const store = new ElasticsearchListingStore(client, { alias: failoverAlias });
    const load = startLoad(failoverAlias, file, dir);
    // Kill node 2 once a fair part of the records is in (GET by id is real-time, the count is not).
    let killedAt = 0;
    for (let i = 0; i < 1200 && !killedAt; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const third = Math.floor(RECORDS / 3);
      const seen = await store.getMany([`${SITES[third % SITES.length]}:N${third}`]).catch(() => new Map());
      if (seen.size) {
        await run('bash', [...SCRIPT, 'kill-node', '2'], { env: scriptEnv });
        killedAt = Date.now();
      }
    }
    expect(killedAt, 'node 2 killed during the load').to.be.greaterThan(0);
    const loaded = await load.done;
    // Searches go on a few seconds after the load, on the one node left.
    await new Promise((r) => setTimeout(r, 3000));
    querying = false;
    await queries;
    const health = await fetch(`${base}/health`).then(async (r) => ({
      status: r.status,
      body: (await r.json()) as { checks: { listings: { detail?: string } } },
    }));
    await service.close();
    // auto_expand_replicas 0-1: with one data node left, replicas drop to 0 and the cluster is green.
    expect(health.status, JSON.stringify(health.body)).to.equal(200);

    expect(loaded.code, loaded.stderr).to.equal(0);
    const report = JSON.parse(loaded.stdout.trim().split('\n').at(-1)!);
    expect(report).to.include({ read: RECORDS, rejected: 0 });
    const after = statuses.filter((s) => s.at > killedAt);
    const answered = after.filter((s) => s.status === 200).length;
    expect(after.length).to.be.greaterThan(10);
    // Answered throughout: a request in flight on the killed node may fail, none after it.
    expect(answered / after.length, JSON.stringify(after.filter((s) => s.status !== 200).slice(0, 5))).to.be.at.least(0.95);
    expect(after.slice(-10).every((s) => s.status === 200)).to.equal(true);
    expect(await catalogueDigest(client, failoverAlias)).to.deep.equal(expected);
    expect(await indicesOf(client, failoverAlias)).to.have.length(1);
    console.log(
      `      two nodes: ${after.length} searches after the kill, ${answered} answered 200; load ${report.seconds} s, catalogue digest equal (${expected.count} listings)`,
    );
  });
});
