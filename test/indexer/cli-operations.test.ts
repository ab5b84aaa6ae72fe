/** The indexer as a nightly job runs it: exit statuses that say what to do next, rejects per load, the store's status. */
import { expect } from 'chai';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { rawRecord, writeNdjson } from '../support/raw.js';
import { cli } from '../support/cli.js';
import { describeEngines, openEngineStore } from '../support/engines.js';
import type { ListingStore } from '../../src/core/ports/listing-store.js';
import { EXIT, exitOfError } from '../../indexer/exit-codes.js';
import { currentIdentity, WriterBusyError } from '../../src/core/ports/writer-lock.js';
import { ElasticsearchListingStore, MissingAliasError } from '../../src/adapters/elasticsearch/listing-store.js';
import { writerLockFile } from '../../src/adapters/sqlite-listings/write/writer-lock.js';

const count = (dir: string): number => {
  const db = new Database(path.join(dir, 'listings.sqlite'), { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM listings').get() as { n: number }).n;
  } finally {
    db.close();
  }
};

describe('indexer exit statuses', function () {
  this.timeout(60_000);

  /** A store with two listings, and a file of a third. */
  async function storeWithTwo() {
    const dir = mkdtempSync(path.join(tmpdir(), 'exit-'));
    const first = await cli('indexer/cli.ts', ['load', writeNdjson([rawRecord(1), rawRecord(2)], 'first.ndjson', dir)], dir);
    expect(first.code, first.stderr).to.equal(EXIT.ok);
    return { dir, next: writeNdjson([rawRecord(3)], 'next.ndjson', dir) };
  }

  it('another live writer holding the lock: exit 3 (retry later), nothing written', async () => {
    const { dir, next } = await storeWithTwo();
    // This test's own process is the holder: alive, on this machine.
    writeFileSync(writerLockFile(path.join(dir, 'listings.sqlite')), JSON.stringify(currentIdentity()));
    const result = await cli('indexer/cli.ts', ['load', next], dir);
    expect(result.code).to.equal(EXIT.busy);
    expect(result.stderr)
      .to.match(/being written by another indexer \(pid \d+/)
      .and.to.match(/retry later/);
    expect(count(dir)).to.equal(2);
  });

  it('a second SQLite writer meeting the first inside a write transaction: exit 3 (retry later), not a failure', async () => {
    const { dir, next } = await storeWithTwo();
    const holder = new Database(path.join(dir, 'listings.sqlite'));
    holder.exec('BEGIN IMMEDIATE');
    try {
      const result = await cli('indexer/cli.ts', ['load', next], dir);
      expect(result.code, result.stderr).to.equal(EXIT.busy);
      expect(result.stderr)
        .to.match(/SQLite store is locked by another writer \(SQLITE_BUSY/)
        .and.to.match(/retry later/);
      expect(result.stderr).not.to.match(/\n\s+at /);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    expect(count(dir)).to.equal(2);
    // Once the other writer is done, the same command succeeds.
    expect((await cli('indexer/cli.ts', ['load', next], dir)).code).to.equal(EXIT.ok);
    expect(count(dir)).to.equal(3);
  });

  it('a setting that does not parse: exit 5 (fix the configuration) naming it, not 1 with a stack', async () => {
    const { dir, next } = await storeWithTwo();
    const result = await cli('indexer/cli.ts', ['load', next], dir, { METRICS_PORT: 'nine thousand' });
    expect(result.code).to.equal(EXIT.misconfigured);
    expect(result.stderr)
      .to.match(/setting METRICS_PORT: /)
      .and.to.match(/retrying will not help/);
    expect(result.stderr).not.to.match(/\n\s+at /);
    expect(count(dir)).to.equal(2);
  });

  it('an Elasticsearch alias gone under a load is a misconfiguration (exit 5); the busy store is not', () => {
    expect(exitOfError(new MissingAliasError('annonces')).code).to.equal(EXIT.misconfigured);
    expect(exitOfError(new WriterBusyError('alias annonces', currentIdentity())).code).to.equal(EXIT.busy);
    expect(exitOfError(new Error('socket hang up')).code).to.equal(EXIT.failure);
  });
});

describe('indexer load rejects', function () {
  this.timeout(60_000);
  const lines = (file: string) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { line: number; reason: string });

  it('--rejects FILE holds the rejects of one load: a later load replaces it, never appends, and empties it when it refuses nothing', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rejects-file-'));
    const rejects = path.join(dir, 'rejects.ndjson');
    const first = await cli('indexer/cli.ts', ['load', writeNdjson([rawRecord(1), '{cut'], 'a.ndjson', dir), '--rejects', rejects], dir);
    expect(first.code, first.stderr).to.equal(EXIT.ok);
    expect(JSON.parse(first.stdout).rejects_file).to.equal(rejects);
    expect(lines(rejects).map((r) => r.reason)).to.deep.equal(['invalid JSON']);
    const second = await cli('indexer/cli.ts', ['load', writeNdjson([rawRecord(2), rawRecord(3, { url: null })], 'b.ndjson', dir), '--rejects', rejects], dir);
    expect(second.code, second.stderr).to.equal(EXIT.ok);
    expect(lines(rejects).map((r) => r.line)).to.deep.equal([2]);
    expect(lines(rejects)[0].reason).to.match(/url/);
    await cli('indexer/cli.ts', ['load', writeNdjson([rawRecord(4)], 'c.ndjson', dir), '--rejects', rejects], dir);
    expect(readFileSync(rejects, 'utf8')).to.equal('');
  });

  it('--rejects DIR/ writes one file per load, named by its start, and the report names it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rejects-dir-'));
    const nightly = path.join(dir, 'rejects');
    const files: string[] = [];
    for (const [name, bad] of [
      ['a.ndjson', '{cut'],
      ['b.ndjson', '[]'],
    ]) {
      const result = await cli('indexer/cli.ts', ['load', writeNdjson([rawRecord(files.length), bad], name, dir), '--rejects', `${nightly}/`], dir);
      expect(result.code, result.stderr).to.equal(EXIT.ok);
      files.push(JSON.parse(result.stdout).rejects_file);
    }
    expect(files[0]).to.match(/\/rejects\/rejects-\d{8}T\d{6}\.\d{3}Z\.ndjson$/);
    expect(readdirSync(nightly).sort()).to.deep.equal(files.map((file) => path.basename(file)).sort());
    expect(files[0]).not.to.equal(files[1]);
    expect(lines(files[0])).to.have.length(1);
    expect(lines(files[1])).to.have.length(1);
    expect(lines(files[1])[0].reason).not.to.equal('invalid JSON');
  });

  it('without --rejects, the report lists each reason with its count and the first few references', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rejects-report-'));
    const noUrl = (i: number) => rawRecord(i, { url: null });
    const file = writeNdjson([noUrl(1), rawRecord(2), noUrl(3), noUrl(4), noUrl(5), '{cut', rawRecord(6, { source: 'nowhere' })], 'in.ndjson', dir);
    const result = await cli('indexer/cli.ts', ['load', file], dir);
    expect(result.code, result.stderr).to.equal(EXIT.ok);
    const report = JSON.parse(result.stdout);
    expect(report.rejected).to.equal(6);
    expect(report.rejects_file).to.equal(null);
    const reasons = report.rejected_reasons as Record<string, { count: number; examples: { file: string; line: number; listing?: string }[] }>;
    expect(Object.values(reasons).map((r) => r.count)).to.deep.equal([4, 1, 1]);
    const [missingUrl, invalidJson, unknownSite] = Object.entries(reasons);
    expect(missingUrl[0]).to.match(/url/);
    // Three references at most, each with its file, line and the listing its record names.
    expect(missingUrl[1].examples).to.deep.equal([1, 3, 4].map((i) => ({ file, line: i, listing: `${rawRecord(i).source}/R${i}` })));
    expect(invalidJson).to.deep.equal(['invalid JSON', { count: 1, examples: [{ file, line: 6 }] }]);
    expect(unknownSite[0]).to.match(/unknown site "nowhere"/);
    expect(unknownSite[1].examples).to.deep.equal([{ file, line: 7, listing: 'nowhere/R6' }]);
  });

  it('--rejects in a directory that does not exist: exit 2, nothing loaded', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rejects-usage-'));
    const result = await cli(
      'indexer/cli.ts',
      ['load', writeNdjson([rawRecord(1)], 'in.ndjson', dir), '--rejects', path.join(dir, 'nowhere', 'r.ndjson')],
      dir,
    );
    expect(result.code).to.equal(EXIT.usage);
    expect(result.stderr).to.match(/--rejects: no directory .*nowhere/);
    expect(existsSync(path.join(dir, 'listings.sqlite'))).to.equal(false);
  });
});

describeEngines('indexer status', function (engine) {
  this.timeout(60_000);
  let store: ListingStore | undefined;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'status-'));
    store = await openEngineStore(engine, 'status');
    env = store instanceof ElasticsearchListingStore ? { ES_URL: process.env.ES_URL, ES_INDEX_ALIAS: store.alias } : {};
  });
  afterEach(async () => {
    await store?.close();
  });
  const status = async () => {
    const result = await cli('indexer/cli.ts', ['status'], dir, env);
    expect(result.code, result.stderr).to.equal(EXIT.ok);
    return JSON.parse(result.stdout);
  };

  it('prints the counts by status, the last load with its report and time, no lock, nothing pending or behind', async () => {
    const before = Date.now();
    const file = writeNdjson([rawRecord(1), rawRecord(2), rawRecord(3, { status: 'vendue' }), '{cut'], 'in.ndjson', dir);
    const loaded = await cli('indexer/cli.ts', ['load', file], dir, env);
    expect(loaded.code, loaded.stderr).to.equal(EXIT.ok);
    const shown = await status();
    expect(shown.backend).to.equal(engine);
    expect(shown.listings).to.deep.equal({ total: 3, by_status: { active: 2, vendue: 1, sous_compromis: 0, archivee: 0, retiree: 0 } });
    expect(shown.last_load.report).to.include({ read: 4, written: 3, rejected: 1 });
    expect(shown.last_load.report.rejected_reasons).to.have.property('invalid JSON');
    expect(Date.parse(shown.last_load.at)).to.be.within(before, Date.now());
    expect(shown).to.include({ writer_lock: null, grouping_pending: false });
    expect(shown.behind).to.deep.equal([]);
  });

  it('shows the writer lock held, with its holder and age, and what is behind the code with the command to run', async () => {
    await cli('indexer/cli.ts', ['load', writeNdjson([rawRecord(1)], 'in.ndjson', dir)], dir, env);
    const sqliteFile = path.join(dir, 'listings.sqlite');
    const lock = store ? await store.acquireWriterLock({ changesFrom: Date.now() }) : null;
    if (!store) writeFileSync(writerLockFile(sqliteFile), JSON.stringify(currentIdentity(new Date(Date.now() - 90_000))));
    try {
      if (store instanceof ElasticsearchListingStore) {
        const [index] = Object.keys(await store.client.indices.getMapping({ index: store.alias }));
        await store.client.indices.putMapping({ index, _meta: { mapping_version: 0 } });
      } else {
        const db = new Database(sqliteFile);
        db.prepare("UPDATE meta SET value = '4' WHERE key = 'schema_version'").run();
        db.close();
      }
      const shown = await status();
      expect(shown.writer_lock.holder.pid).to.equal(process.pid);
      expect(shown.writer_lock.alive).to.equal(true);
      expect(shown.writer_lock.age_seconds).to.be.within(store ? 0 : 89, store ? 30 : 120);
      expect(shown.behind).to.have.length(1);
      expect(shown.behind[0].what).to.match(engine === 'sqlite' ? /^schema 4, this code writes \d+$/ : /mapping version 0, mappings\/annonces\.json \d+$/);
      expect(shown.behind[0].command).to.equal('npm run indexer -- reindex');
    } finally {
      await lock?.release();
    }
  });

  it('a store that is not there: exit 5, and nothing is created', async () => {
    const missingEnv = store instanceof ElasticsearchListingStore ? { ...env, ES_INDEX_ALIAS: `${store.alias}-none` } : env;
    const result = await cli('indexer/cli.ts', ['status'], dir, missingEnv);
    expect(result.code).to.equal(EXIT.misconfigured);
    if (store instanceof ElasticsearchListingStore) {
      expect(result.stderr).to.contain(`the alias ${store.alias}-none does not exist`);
      const created = await store.client.indices.resolveIndex({ name: `${store.alias}-none*` });
      expect([...created.indices, ...created.aliases]).to.deep.equal([]);
    } else {
      expect(result.stderr).to.match(/no store in .* \(listings\.sqlite missing\)/);
      expect(existsSync(path.join(dir, 'listings.sqlite'))).to.equal(false);
    }
  });

  it('status with an argument: exit 2', async () => {
    const result = await cli('indexer/cli.ts', ['status', 'now'], dir, env);
    expect(result.code).to.equal(EXIT.usage);
    expect(result.stderr).to.match(/status takes no argument/);
  });
});
