/**
 * Security on, least privileges: a node started by `scripts/elasticsearch.sh start --security` (TLS
 * on HTTP, the two roles of scripts/elasticsearch-roles.sh carried by API keys and by file-realm
 * users) on a port of its own (ES_SECURE_PORT, default 9250), so it never touches the node of
 * ES_URL. The indexer creates the alias and loads with its API key; the API, with the read-only
 * one, answers every listing route and /health; a load attempted with the API's key or user is
 * refused and says so. Set SKIP_SECURITY_TEST=1 to
 * leave it out of a local run.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { rawRecord, writeNdjson } from '../../support/raw.js';
import { startTool } from '../../support/child.js';
import { createElasticsearchClient } from '../../../src/adapters/elasticsearch/client.js';
import { readLock, stateIndexOf } from '../../../src/adapters/elasticsearch/writer-lock.js';
import { loadConfig } from '../../../src/config/config.js';
import { createService, type Service } from '../../../src/service.js';
import { createKey } from '../../../src/admin/commands.js';

const run = promisify(execFile);
const PORT = Number(process.env.ES_SECURE_PORT ?? 9250);
const SCRIPT = ['scripts/elasticsearch.sh'];
const scriptEnv = { ...process.env, ES_HTTP_PORT: String(PORT), ES_HEAP: process.env.ES_HEAP ?? '256m' };
const ALIAS = 'annonces';
const RECORDS = 300;

/** The `NAME=value` lines the script prints on its standard output. */
function printed(stdout: string): Record<string, string> {
  return Object.fromEntries(
    stdout
      .split('\n')
      .filter((line) => /^[A-Z_]+=/.test(line))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

const runTool = (args: string[], env: NodeJS.ProcessEnv) => startTool(args, env).done;

describe('Elasticsearch with security on: the API on a read-only role, the indexer on its own', function () {
  this.timeout(300_000);
  let cluster: Record<string, string> = {};
  const dir = mkdtempSync(path.join(tmpdir(), 'es-secure-'));
  /** The environment of a process holding one role, by its API key (or by its file-realm user). */
  const as = (role: 'API' | 'INDEXER', by: 'api-key' | 'user' = 'api-key'): NodeJS.ProcessEnv => ({
    ...process.env,
    ES_URL: cluster.ES_URL,
    ES_CA_FILE: cluster.ES_CA_FILE,
    ES_USERNAME: by === 'user' ? cluster[`ES_USERNAME_${role}`] : '',
    ES_PASSWORD: by === 'user' ? cluster[`ES_PASSWORD_${role}`] : '',
    ES_API_KEY: by === 'api-key' ? cluster[`ES_API_KEY_${role}`] : '',
    ES_INDEX_ALIAS: ALIAS,
    DATA_DIR: dir,
    REDIS_URL: '',
  });

  before(async function () {
    if (process.env.SKIP_SECURITY_TEST) return this.skip();
    const { stdout } = await run('bash', [...SCRIPT, 'start', '--security'], { env: scriptEnv });
    cluster = printed(stdout);
    // A previous run's catalogue is removed, with the indexer's own rights.
    const client = createElasticsearchClient({
      url: cluster.ES_URL,
      caFile: cluster.ES_CA_FILE,
      username: cluster.ES_USERNAME_INDEXER,
      password: cluster.ES_PASSWORD_INDEXER,
    });
    const previous = await client.indices.get({ index: `${ALIAS}-*`, expand_wildcards: 'all' }).catch(() => ({}));
    if (Object.keys(previous).length) await client.indices.delete({ index: Object.keys(previous) });
    await client.close();
  });
  after(async () => {
    if (!process.env.SKIP_SECURITY_TEST) await run('bash', [...SCRIPT, 'stop'], { env: scriptEnv });
  });

  it('prints the cluster over https, its CA and the credentials of the two roles', () => {
    expect(cluster.ES_URL).to.equal(`https://127.0.0.1:${PORT}`);
    expect(cluster.ES_CA_FILE).to.match(/ca\.crt$/);
    expect(cluster.ES_API_KEY_API).to.match(/^[A-Za-z0-9+/=_-]{40,}$/);
    expect(cluster.ES_API_KEY_INDEXER).to.match(/^[A-Za-z0-9+/=_-]{40,}$/);
    expect(cluster.ES_API_KEY_INDEXER).to.not.equal(cluster.ES_API_KEY_API);
    expect(cluster).to.include({ ES_USERNAME_API: 'annonces-api', ES_USERNAME_INDEXER: 'annonces-indexer' });
    expect(cluster.ES_PASSWORD_API).to.have.length.greaterThan(10);
    expect(cluster.ES_PASSWORD_INDEXER).to.not.equal(cluster.ES_PASSWORD_API);
  });

  it('the indexer creates the alias and loads; the API reads everything with its read-only role and writes nothing', async () => {
    const file = writeNdjson(
      Array.from({ length: RECORDS }, (_, i) => rawRecord(i, { reference: `S${i}` })),
      'in.ndjson',
      dir,
    );
    const ensured = await runTool(['src/adapters/elasticsearch/cli.ts', 'ensure'], as('INDEXER'));
    expect(ensured.code, ensured.stderr).to.equal(0);
    const loaded = await runTool(['indexer/cli.ts', 'load', file], as('INDEXER'));
    expect(loaded.code, loaded.stderr).to.equal(0);
    expect(JSON.parse(loaded.stdout.trim().split('\n').at(-1)!)).to.include({ read: RECORDS, rejected: 0 });

    const config = loadConfig({ ...as('API'), LOG_LEVEL: 'silent', CURSOR_SECRET: 's', FEED_SETTLE_SECONDS: '0' });
    const service: Service = await createService(config, { logger: pino({ level: 'silent' }) });
    try {
      const server = await service.listen(0, '127.0.0.1');
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
      const { key } = await createKey(service.deps.access, service.deps.offers, {
        account: 'secure',
        offer: 'sur_mesure',
        createdAt: '2020-01-01',
        historyDays: 0,
      });
      const get = async (route: string) => {
        const response = await fetch(`${base}${route}`, { headers: { 'X-Api-Key': key } });
        return { status: response.status, body: (await response.json()) as Record<string, unknown> };
      };
      const search = await get('/annonces?page_size=5');
      expect(search.status, JSON.stringify(search.body)).to.equal(200);
      expect(search.body.items).to.have.length(5);
      const map = await get('/annonces/map?bbox=41,-5,51,10');
      expect(map.status, JSON.stringify(map.body)).to.equal(200);
      expect(map.body.total).to.be.greaterThan(0);
      const feed = await get('/annonces/feed?page_size=50');
      expect(feed.status, JSON.stringify(feed.body)).to.equal(200);
      expect(feed.body.items).to.have.length(50);
      const withdrawn = await get('/annonces/retirees?page_size=50');
      expect(withdrawn.status, JSON.stringify(withdrawn.body)).to.equal(200);
      const health = await get('/health');
      expect(health.status, JSON.stringify(health.body)).to.equal(200);

      // A writer's lock left behind (its holder on another host, silent for long): the API's feed
      // still answers, stopping below it, and leaves the lock to the next writer.
      const indexer = createElasticsearchClient({
        url: cluster.ES_URL,
        caFile: cluster.ES_CA_FILE,
        username: cluster.ES_USERNAME_INDEXER,
        password: cluster.ES_PASSWORD_INDEXER,
      });
      const holder = { host: 'elsewhere', pid: 1, process_start: null, boot_id: null, since: '2020-01-01T00:00:00Z' };
      await indexer.index({ index: stateIndexOf(ALIAS), id: 'writer', document: { holder, changes_from: 0, heartbeat_at: 0, beats: 0 }, refresh: true });
      const held = await get('/annonces/feed?page_size=50');
      expect(held.status, JSON.stringify(held.body)).to.equal(200);
      expect(held.body.items).to.have.length(0);
      expect(await readLock(indexer, ALIAS)).to.not.equal(null);
      await indexer.delete({ index: stateIndexOf(ALIAS), id: 'writer', refresh: true });
      await indexer.close();
    } finally {
      await service.close();
    }
  });

  it('a load with the API credentials is refused, saying which right is missing', async () => {
    const file = writeNdjson([rawRecord(1, { reference: 'S1', price: '1 000 €' })], 'one.ndjson', dir);
    const byKey = await runTool(['indexer/cli.ts', 'load', file], as('API'));
    expect(byKey.code).to.not.equal(0);
    expect(byKey.stderr).to.match(/unauthorized for API key id \[[^\]]+\]/);
    const byUser = await runTool(['indexer/cli.ts', 'load', file], as('API', 'user'));
    expect(byUser.code).to.not.equal(0);
    expect(byUser.stderr).to.match(/unauthorized for user \[annonces-api\]/);
  });

  it('the users of the two roles work as their API keys do', async () => {
    const file = writeNdjson([rawRecord(RECORDS + 1, { reference: `S${RECORDS + 1}` })], 'by-user.ndjson', dir);
    const loaded = await runTool(['indexer/cli.ts', 'load', file], as('INDEXER', 'user'));
    expect(loaded.code, loaded.stderr).to.equal(0);
    const status = await runTool(['indexer/cli.ts', 'status'], as('API', 'user'));
    expect(status.code, status.stderr).to.equal(0);
  });
});
