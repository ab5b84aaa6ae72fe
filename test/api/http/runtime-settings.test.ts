/** Settings of the API process and its embedded listings store: npm start, and the real service wiring. */
import { expect } from 'chai';
import { engineMissing } from '../../support/engines.js';
import { deleteAliasIndices, elasticsearchConnection, testAlias } from '../../support/elasticsearch.js';
import { createElasticsearchClient } from '../../../src/adapters/elasticsearch/client.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { loadConfig } from '../../../src/config/config.js';
import { SqliteListingStore } from '../../../src/adapters/sqlite-listings/listing-store.js';
import { makeListings } from '../../support/fixtures.js';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServer } from 'node:net';
import { API_NODE_FLAGS } from '../../../src/node-flags.js';

const MIB = 1024 * 1024;

describe('API listings store settings', () => {
  const mappedBytes = (app: TestApp) => {
    const store = app.service.deps.listings;
    if (!(store instanceof SqliteListingStore)) throw new Error('expected the embedded store');
    return store.database.pragma('mmap_size', { simple: true });
  };

  it('maps 2 047 MiB of the listings file by default, SQLITE_MMAP_MIB otherwise (0: none), and answers the same', async () => {
    const listings = makeListings({ count: 80, seed: 3 });
    const answers: unknown[] = [];
    for (const [env, expected] of [
      [{}, 2047 * MIB],
      [{ SQLITE_MMAP_MIB: '64' }, 64 * MIB],
      [{ SQLITE_MMAP_MIB: '0' }, 0],
    ] as const) {
      const app = await startTestApp({ listings, env });
      try {
        expect(mappedBytes(app), JSON.stringify(env)).to.equal(expected);
        const key = await app.newKey();
        const { status, body } = await app.get('/annonces?sort=price_asc&page_size=50', key);
        expect(status).to.equal(200);
        answers.push(body.items.map((item: { reference: string }) => item.reference));
      } finally {
        await app.close();
      }
    }
    expect(answers[1]).to.deep.equal(answers[0]);
    expect(answers[2]).to.deep.equal(answers[0]);
  });

  it('refuses a mapping above what SQLite can map, naming the setting', () => {
    expect(() => loadConfig({ SQLITE_MMAP_MIB: '4096' })).to.throw(/SQLITE_MMAP_MIB/);
    expect(() => loadConfig({ SQLITE_MMAP_MIB: '-1' })).to.throw(/SQLITE_MMAP_MIB/);
  });
});

describe('npm start', function () {
  this.timeout(60_000);

  const freePort = () =>
    new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
  /** Processes of the tree under `pid` (npm -> sh -> node), with their command lines. */
  const descendants = (pid: number): { pid: number; argv: string[] }[] => {
    const found: { pid: number; argv: string[] }[] = [];
    for (const entry of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        if (parent !== pid) continue;
        const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean);
        found.push({ pid: Number(entry), argv }, ...descendants(Number(entry)));
      } catch {
        /* the process ended meanwhile */
      }
    }
    return found;
  };

  it('runs the API with the node flags of src/node-flags.ts and answers', async () => {
    const script = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts.start;
    for (const flag of API_NODE_FLAGS) expect(script.split(/\s+/)).to.include(flag);
    const port = await freePort();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'npm-start-'));
    const child = spawn('npm', ['start', '--silent'], {
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        SAMPLE_COUNT: '0',
        LOG_LEVEL: 'silent',
        REDIS_URL: '',
        ES_URL: '',
        API_WORKERS: '1',
      },
      stdio: 'ignore',
    });
    try {
      let status = 0;
      for (const deadline = Date.now() + 30_000; Date.now() < deadline && status !== 200; ) {
        status = await fetch(`http://127.0.0.1:${port}/api/v1/health`).then(
          (r) => r.status,
          () => 0,
        );
        if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(status).to.equal(200);
      const api = descendants(child.pid!).find(({ argv }) => argv.includes('app/main.ts') && /(^|\/)node$/.test(argv[0]));
      expect(api, 'the API node process').to.not.equal(undefined);
      for (const flag of API_NODE_FLAGS) expect(api!.argv).to.include(flag);
    } finally {
      for (const { pid } of descendants(child.pid!)) {
        try {
          process.kill(pid, 'SIGTERM');
        } catch {
          /* already gone */
        }
      }
      child.kill('SIGTERM');
    }
  });

  it('on an empty Elasticsearch index (ES_URL) loads the sample into it and prints a working demo key', async function () {
    const missing = engineMissing('elasticsearch');
    if (missing !== null) {
      if (process.env.REQUIRE_ALL_ENGINES) throw new Error(missing);
      return this.skip();
    }
    const port = await freePort();
    const alias = testAlias('npmstart');
    const dataDir = mkdtempSync(path.join(tmpdir(), 'npm-start-es-'));
    const child = spawn('npm', ['start', '--silent'], {
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        SAMPLE_COUNT: '300',
        LOG_LEVEL: 'silent',
        REDIS_URL: '',
        ES_INDEX_ALIAS: alias,
        API_WORKERS: '1',
      },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let output = '';
    child.stdout!.on('data', (chunk) => {
      output += chunk;
    });
    const client = createElasticsearchClient(elasticsearchConnection()!);
    try {
      for (const deadline = Date.now() + 50_000; Date.now() < deadline && !/curl -s/.test(output); ) await new Promise((resolve) => setTimeout(resolve, 200));
      const key = /X-Api-Key: (\S+)'/.exec(output)?.[1];
      expect(key, output).to.be.a('string');
      const reply = await fetch(`http://127.0.0.1:${port}/api/v1/annonces?page_size=3`, { headers: { 'X-Api-Key': key! } });
      expect(reply.status).to.equal(200);
      expect(((await reply.json()) as { items: unknown[] }).items).to.have.length(3);
      await client.indices.refresh({ index: alias });
      expect((await client.count({ index: alias })).count).to.be.within(250, 300);
    } finally {
      for (const { pid } of descendants(child.pid!)) {
        try {
          process.kill(pid, 'SIGTERM');
        } catch {
          /* already gone */
        }
      }
      child.kill('SIGTERM');
      await deleteAliasIndices(client, alias);
      await client.close();
    }
  });
});
