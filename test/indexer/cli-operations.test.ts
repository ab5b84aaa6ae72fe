/** The indexer as a nightly job runs it: exit statuses that say what to do next, rejects per load, the store's status. */
import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { rawRecord, writeNdjson } from '../support/raw.js';
import { cli } from '../support/cli.js';
import { EXIT, exitOfError } from '../../indexer/exit-codes.js';
import { currentIdentity, WriterBusyError } from '../../src/core/ports/writer-lock.js';
import { MissingAliasError } from '../../src/adapters/elasticsearch/listing-store.js';
import { writerLockFile } from '../../src/adapters/sqlite-listings/writer-lock.js';

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
