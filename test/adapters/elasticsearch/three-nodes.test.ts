/**
 * Three master-eligible nodes: the ELECTED MASTER killed while the API is queried and a load runs.
 * The cluster is started by scripts/elasticsearch.sh on ports of its own (ES_THREE_NODE_PORT,
 * default 9220 to 9222) with small heaps, and the service and the indexer are given all three nodes
 * in ES_URL. Set SKIP_THREE_NODE_TEST=1 to leave it out of a local run.
 *
 * Searches keep answering (a 503 with Retry-After allowed while a master is elected, never a 500);
 * the load finishes, or fails cleanly and a rerun finishes; the catalogue equals a clean load's;
 * /health says yellow while a node is missing and green once it has rejoined.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
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
import { storeDigest } from '../../support/store-digest.js';
import { createElasticsearchClient } from '../../../src/adapters/elasticsearch/client.js';
import { ensureIndex } from '../../../src/adapters/elasticsearch/aliases.js';
import { loadIndexDefinition, withReplicas } from '../../../src/adapters/elasticsearch/index-definition.js';
import { ElasticsearchListingStore } from '../../../src/adapters/elasticsearch/listing-store.js';
import { loadConfig } from '../../../src/config/config.js';
import { createService } from '../../../src/service.js';
import { createKey } from '../../../src/admin/commands.js';

const run = promisify(execFile);
const PORT = Number(process.env.ES_THREE_NODE_PORT ?? 9220);
const NODES = [0, 1, 2].map((n) => `http://127.0.0.1:${PORT + n}`);
const ES_URL = NODES.join(',');
const SCRIPT = ['scripts/elasticsearch.sh'];
const scriptEnv = { ...process.env, ES_HTTP_PORT: String(PORT), ES_HEAP: process.env.ES_HEAP ?? '256m' };
const RECORDS = 4000;
/**
 * One primary (the service's layout) and two replicas: a copy on every node, so whichever node is
 * the elected master, killing it leaves a copy unassigned and the cluster yellow until it rejoins.
 * With one replica, a third of the runs killed a master that held no copy and health stayed green.
 */
const DEFINITION = withReplicas(loadIndexDefinition(), 2);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Answer {
  at: number;
  status: number;
  retryAfter: string | null;
}

describe('Elasticsearch, three master-eligible nodes: the elected master killed during a load and queries', function () {
  this.timeout(900_000);
  let client: Client;
  const cleanAlias = testAlias('clean3');
  const failoverAlias = testAlias('master');
  const dir = mkdtempSync(path.join(tmpdir(), 'three-nodes-'));
  const file = writeNdjson(
    Array.from({ length: RECORDS }, (_, i) => rawRecord(i, { reference: `M${i}` })),
    'in.ndjson',
    dir,
  );
  const load = (alias: string) =>
    startTool(['indexer/cli.ts', 'load', file], { ...process.env, ES_URL, ES_INDEX_ALIAS: alias, DATA_DIR: dir, REDIS_URL: '', ES_WRITER_LEASE_SECONDS: '10' });
  const digestOf = async (alias: string) => {
    await client.indices.refresh({ index: alias });
    return storeDigest(new ElasticsearchListingStore(client, { alias }));
  };

  before(async function () {
    if (process.env.SKIP_THREE_NODE_TEST) return this.skip();
    await run('bash', [...SCRIPT, 'start', '--nodes', '3'], { env: scriptEnv });
    client = createElasticsearchClient({ url: ES_URL }, { requestTimeout: 60_000, maxRetries: 3 });
  });
  after(async () => {
    if (client) for (const alias of [cleanAlias, failoverAlias]) await deleteAliasIndices(client, alias).catch(() => {});
    await client?.close();
    if (!process.env.SKIP_THREE_NODE_TEST) await run('bash', [...SCRIPT, 'stop'], { env: scriptEnv });
  });

  it('keeps answering (200, or 503 with Retry-After), the load ends in the clean state, health goes yellow then green', async () => {
    const cluster = await client.cluster.health();
    expect(cluster.number_of_nodes).to.equal(3);

    await ensureIndex(client, cleanAlias, DEFINITION);
    const clean = await load(cleanAlias).done;
    expect(clean.code, clean.stderr).to.equal(0);
    const expected = await digestOf(cleanAlias);
    expect(expected.listings).to.equal(RECORDS);

    await ensureIndex(client, failoverAlias, DEFINITION);
    const config = loadConfig({ DATA_DIR: dir, ES_URL, ES_INDEX_ALIAS: failoverAlias, LOG_LEVEL: 'silent', CURSOR_SECRET: 's', FEED_SETTLE_SECONDS: '0' });
    const service = await createService(config, { logger: pino({ level: 'silent' }) });
    const server = await service.listen(0, '127.0.0.1');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
    const health = async () => {
      const response = await fetch(`${base}/health`);
      const body = (await response.json().catch(() => ({}))) as { checks?: { listings?: { detail?: string } } };
      return { status: response.status, detail: body.checks?.listings?.detail };
    };
    try {
      const { key } = await createKey(service.deps.access, service.deps.offers, {
        account: 'master',
        offer: 'sur_mesure',
        createdAt: '2020-01-01',
        historyDays: 0,
      });
      const answers: Answer[] = [];
      let querying = true;
      const queries = (async () => {
        while (querying) {
          const answer = await fetch(`${base}/annonces?page_size=20&q=lumineux`, { headers: { 'X-Api-Key': key } }).then(
            (r) => ({ at: Date.now(), status: r.status, retryAfter: r.headers.get('retry-after') }),
            () => ({ at: Date.now(), status: 0, retryAfter: null }),
          );
          answers.push(answer);
        }
      })();

      const store = new ElasticsearchListingStore(client, { alias: failoverAlias });
      const first = load(failoverAlias);
      let killed = '';
      let killedAt = 0;
      const third = rawRecord(Math.floor(RECORDS / 3), { reference: `M${Math.floor(RECORDS / 3)}` });
      for (let i = 0; i < 1200 && !killed; i++) {
        await sleep(100);
        const seen = await store.getMany([`${third.source}:${third.reference}`]).catch(() => new Map());
        if (seen.size) {
          const { stdout } = await run('bash', [...SCRIPT, 'kill-node', 'master'], { env: scriptEnv });
          killed = /KILLED=(node-\d)/.exec(stdout)![1];
          killedAt = Date.now();
        }
      }
      expect(killed, 'the elected master killed during the load').to.match(/^node-\d$/);
      // Read while the node is missing, before the load ends: the first answers may come while a
      // master is being elected.
      let whileMissing = await health();
      for (let i = 0; i < 60 && !/cluster yellow/.test(whileMissing.detail ?? ''); i++) {
        await sleep(500);
        whileMissing = await health();
      }
      const loaded = await first.done;
      // A load that failed for the lost master fails cleanly (a message, no partial lock left for long) and a rerun finishes.
      const rerun = loaded.code === 0 ? null : await load(failoverAlias).done;
      if (rerun) expect(rerun.code, rerun.stderr).to.equal(0);

      querying = false;
      await queries;

      const after = answers.filter((a) => a.at > killedAt);
      expect(after.length).to.be.greaterThan(10);
      const wrong = after.filter((a) => a.status !== 200 && !(a.status === 503 && a.retryAfter !== null));
      expect(wrong, JSON.stringify(wrong.slice(0, 5))).to.deep.equal([]);
      expect(after.slice(-10).every((a) => a.status === 200)).to.equal(true);
      expect(whileMissing.status).to.equal(200);
      expect(whileMissing.detail).to.match(/cluster yellow/);

      // The killed node restarted (the script starts the node missing): it rejoins and the cluster is green.
      await run('bash', [...SCRIPT, 'start', '--nodes', '3'], { env: scriptEnv });
      await client.cluster.health({ wait_for_status: 'green', timeout: '120s' });
      const rejoined = await health();
      expect(rejoined).to.deep.equal({ status: 200, detail: undefined });

      expect(await digestOf(failoverAlias)).to.deep.equal(expected);

      // Nothing written since: the node restarted rejoins with its replica and the cluster is green again.
      const [index] = Object.keys(await client.indices.getAlias({ name: failoverAlias }));
      await client.indices.flush({ index });
      // The node holding the replica is the one restarted: it must keep its copy.
      const replicaNode = (await client.cat.shards({ index, format: 'json' })).find((s) => s.prirep === 'r' && s.state === 'STARTED')?.node ?? 'node-3';
      await run('bash', [...SCRIPT, 'kill-node', replicaNode.replace('node-', '')], { env: scriptEnv });
      await client.cluster.health({ wait_for_nodes: '2', timeout: '60s' });
      await run('bash', [...SCRIPT, 'start', '--nodes', '3'], { env: scriptEnv });
      await client.cluster.health({ index, wait_for_status: 'green', wait_for_nodes: '3', timeout: '120s' });
      const recoveries = (await client.indices.recovery({ index }))[index].shards.filter((r) => r.target.name === replicaNode && !r.primary);
      expect(recoveries.length, `${replicaNode} holds the replica`).to.be.greaterThan(0);
      // Whether it copies files again depends on merges the primary ran meanwhile: said, not asserted.
      console.log(`      ${replicaNode} restarted: ${recoveries.map((r) => r.index.size.recovered_in_bytes).join(', ')} bytes copied again`);
      console.log(
        `      three nodes: ${killed} (master) killed; ${after.length} searches after, ${after.filter((a) => a.status === 200).length} answered 200, ` +
          `${after.filter((a) => a.status === 503).length} 503 with Retry-After; load exit ${loaded.code}${rerun ? `, rerun exit ${rerun.code}` : ''}`,
      );
    } finally {
      await service.close();
    }
  });
});
