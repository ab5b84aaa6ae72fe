/** The engines of a run (`--engines`) and the tables that put them side by side (side-by-side.ts). */
import { expect } from 'chai';
import { accessRedis, parseOptions, UsageError, type BenchOptions } from '../../scripts/bench/options.js';
import { esIndexerRow, indexerSideBySide, runLabel, sideBySideTable, sqliteIndexerRow } from '../../scripts/bench/side-by-side.js';
import type { LoadFigures } from '../../scripts/bench/catalogue.js';
import type { EsLoad } from '../../scripts/bench/es-catalogue.js';

const parse = (argv: string[], env: NodeJS.ProcessEnv = {}) => parseOptions(argv, env) as BenchOptions;

describe('bench: --engines', () => {
  it('runs both engines when ES_URL is set and SQLite alone when it is not', () => {
    expect(parse([]).engines).to.deep.equal(['sqlite']);
    expect(parse([]).esUrl).to.equal(null);
    const both = parse([], { ES_URL: 'http://127.0.0.1:9200' });
    expect(both.engines).to.deep.equal(['sqlite', 'elasticsearch']);
    expect(both.esUrl).to.equal('http://127.0.0.1:9200');
  });

  it('takes a comma list in its order, and drops ES_URL when Elasticsearch is not asked for', () => {
    const env = { ES_URL: 'http://127.0.0.1:9200' };
    expect(parse(['--engines', 'elasticsearch,sqlite'], env).engines).to.deep.equal(['elasticsearch', 'sqlite']);
    expect(parse(['--indexer', '--engines', 'elasticsearch'], env).engines).to.deep.equal(['elasticsearch']);
    const sqlite = parse(['--engines', 'sqlite'], env);
    expect(sqlite.engines).to.deep.equal(['sqlite']);
    expect(sqlite.esUrl).to.equal(null);
  });

  it('refuses an unknown engine, a repeat, and Elasticsearch without ES_URL', () => {
    expect(() => parse(['--engines', 'postgres'])).to.throw(UsageError, /sqlite, elasticsearch/);
    expect(() => parse(['--engines', 'sqlite,sqlite'])).to.throw(UsageError, /twice/);
    expect(() => parse(['--engines', 'elasticsearch'])).to.throw(UsageError, /needs ES_URL/);
  });
});

describe('bench: --workers', () => {
  it('runs one process with the embedded access file by default, as npm start does', () => {
    const options = parse([]);
    expect(options.workers).to.deep.equal([1]);
    expect(accessRedis(options, 1)).to.equal(null);
  });

  it('takes a list of process counts; the runs above one put the access state in Redis', () => {
    const options = parse(['--workers', '1,2'], { REDIS_URL: 'redis://127.0.0.1:6390' });
    expect(options.workers).to.deep.equal([1, 2]);
    expect(accessRedis(options, 1)).to.equal(null);
    expect(accessRedis(options, 2)).to.equal('redis://127.0.0.1:6390');
    expect(accessRedis(parse(['--workers', '1', '--access', 'redis']), 1)).to.equal('redis://127.0.0.1:6379');
  });

  it('refuses a repeated count, a count below 1, and two processes on the embedded access file', () => {
    expect(() => parse(['--workers', '2,2'])).to.throw(UsageError, /twice/);
    expect(() => parse(['--workers', '0'])).to.throw(UsageError, /integer >= 1/);
    expect(() => parse(['--workers', '1,2', '--access', 'sqlite'])).to.throw(UsageError, /needs --access redis/);
  });

  it('names each run by engine, and by its processes when the runs differ by them', () => {
    expect(runLabel('sqlite', 1, false)).to.equal('SQLite');
    expect(runLabel('sqlite', 1, true)).to.equal('SQLite 1 process');
    expect(runLabel('elasticsearch', 2, true)).to.equal('Elasticsearch 2 processes');
  });
});

describe('bench: engines side by side', () => {
  const row = (name: string, rps: number, p50: number, cpuMsPerRequest = 1) => ({
    name,
    title: `${name} title`,
    rps,
    p50,
    p99: p50 * 3,
    rawMs: p50 / 10,
    errors: 0,
    cpuMsPerRequest,
  });

  it('puts each scenario on one line, one column group per engine, with the req/s and API CPU ratios', () => {
    const table = sideBySideTable([
      { label: 'SQLite', rows: [row('search', 2000, 20, 0.5), row('map', 100, 30, 4), row('ptz', 8000, 5)] },
      { label: 'Elasticsearch', rows: [row('search', 500, 80, 0.6), row('map', 90, 40, 6)] },
    ]);
    const lines = table.split('\n');
    expect(lines[0]).to.match(
      /\| scenario +\| SQLite req\/s \| SQLite p50 ms \| SQLite p99 ms \| SQLite raw ms \| SQLite API CPU ms\/req \| Elasticsearch req\/s .*\| Elasticsearch \/ SQLite req\/s \| Elasticsearch \/ SQLite API CPU \(target <= 1\.3\) \|/,
    );
    expect(lines).to.have.length(5);
    expect(lines[2]).to.match(
      /^\| search: search title +\| 2 000 +\| 20\.0 +\| 60\.0 +\| 2\.00 +\| 0\.50 +\| 500 +\| 80\.0 +\| 240 +\| 8\.00 +\| 0\.60 +\| 0\.25 +\| 1\.20 met +\|$/,
    );
    expect(lines[3]).to.match(/\| 0\.90 +\| 1\.50 MISSED +\|$/);
    // A scenario one engine did not run: dashes there, no ratio.
    expect(lines[4]).to.match(/^\| ptz: ptz title +\| 8 000 +\| 5\.00 .*\| - +\| - +\| - +\| - +\| - +\| - +\| - +\|$/);
  });

  it('lays the indexer loads of both engines side by side, with the index layout', () => {
    const figures: LoadFigures = {
      records: 200_000,
      written: 199_990,
      rejected: 10,
      indexerSeconds: 150,
      recordsPerSecond: 1333,
      wallSeconds: 160,
      endToEndPerSecond: 1250,
      peakRssMiB: 284.4,
      storeBytes: 2 * 1024 ** 3,
      builtAt: '2026-11-26T00:39:05.000Z',
    };
    const es: EsLoad = {
      ...figures,
      recordsPerSecond: 400,
      endToEndPerSecond: 380,
      peakRssMiB: 270,
      builtAt: '2026-11-26T01:02:00.000Z',
      url: 'http://es',
      alias: 'bench-a',
      index: {
        indices: ['bench-a-v1'],
        documents: 199_990,
        storeBytes: 600 * 1024 ** 2,
        primaryStoreBytes: 600 * 1024 ** 2,
        primaryShards: 3,
        replicas: 0,
        nodes: 1,
        version: '8.19.20',
        heapMaxBytes: 2 * 1024 ** 3,
        heapUsedBytes: 0,
      },
    };
    const lines = indexerSideBySide([sqliteIndexerRow(figures), esIndexerRow(es)]).split('\n');
    expect(lines[2]).to.match(/^\| SQLite +\| 200 000 \| 199 990 \| 10 +\| 1 333 +\| 1 250 +\| 160\.0 +\| 284 MiB +\| 2\.00 GiB +\| one file/);
    expect(lines[3]).to.match(
      /^\| Elasticsearch \| 200 000 \| 199 990 \| 10 +\| 400 +\| 380 +\| 160\.0 +\| 270 MiB +\| 600\.0 MiB +\| 3 primary shards, 0 replicas, 1 node, heap 2\.00 GiB \| 2026-11-26T01:02Z \|$/,
    );
  });
});
