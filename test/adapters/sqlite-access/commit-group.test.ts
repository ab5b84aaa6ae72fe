/**
 * Group commit of the embedded access file (src/adapters/sqlite-access/commit-group.ts): pieces of work of one
 * turn of the event loop share a transaction, each in its own savepoint.
 */
import { expect } from 'chai';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CommitGroup } from '../../../src/adapters/sqlite-access/commit-group.js';

describe('SQLite group commit (access file)', () => {
  let dir: string;
  let db: Database.Database;
  let other: Database.Database;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'commit-group-'));
    const file = path.join(dir, 'a.sqlite');
    db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE t (v TEXT PRIMARY KEY)');
    other = new Database(file);
  });
  afterEach(() => {
    db.close();
    other.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const insert = (value: string, fail = false) =>
    db.transaction(() => {
      db.prepare('INSERT INTO t (v) VALUES (?)').run(value);
      if (fail) throw new Error(`refused ${value}`);
      return (db.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n;
    });
  const stored = (connection: Database.Database) => (connection.prepare('SELECT v FROM t ORDER BY v').all() as { v: string }[]).map((r) => r.v);

  it('runs the work of one turn in order in ONE transaction; a piece that throws undoes only itself', async () => {
    const group = new CommitGroup(db);
    const seenByOthers: string[][] = [];
    const outcomes = await Promise.allSettled([
      group.run(() => {
        seenByOthers.push(stored(other));
        return insert('a')();
      }),
      group.run(insert('b', true)),
      group.run(() => {
        const n = insert('c')();
        seenByOthers.push(stored(other));
        return n;
      }),
    ]);
    // Each piece saw the ones before it (count after a: 1; after c: 2, b undone)...
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message))).to.deep.equal([1, 'refused b', 2]);
    // ... another connection saw nothing until the one commit, then everything kept.
    expect(seenByOthers).to.deep.equal([[], []]);
    expect(stored(other)).to.deep.equal(['a', 'c']);
    expect(db.inTransaction).to.equal(false);
  });

  it('rejects the whole group when the transaction cannot start, and works again once the file is free', async () => {
    const group = new CommitGroup(db);
    db.pragma('busy_timeout = 0');
    other.exec('BEGIN IMMEDIATE');
    const outcomes = await Promise.allSettled([group.run(insert('x')), group.run(insert('y'))]);
    expect(outcomes.map((o) => o.status)).to.deep.equal(['rejected', 'rejected']);
    expect(String((outcomes[0] as PromiseRejectedResult).reason)).to.match(/locked|busy/i);
    other.exec('ROLLBACK');
    expect(await group.run(insert('z'))).to.equal(1);
    expect(stored(other)).to.deep.equal(['z']);
  });
});
