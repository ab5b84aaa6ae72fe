/**
 * The embedded adapter under real parallelism: several worker threads, each with its own connection
 * to one access file (as several API processes would be). BEGIN IMMEDIATE serialises the counts.
 */
import { expect } from 'chai';
import { Worker } from 'node:worker_threads';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SqliteAccessStore } from '../../../src/adapters/sqlite-access/access-store.js';
import { T0, scopeAt } from '../../conformance/access/scopes.js';

const WORKER = new URL('../../api/access/support/sqlite-consumer.ts', import.meta.url);

function runWorker(data: Record<string, unknown>): Promise<{ added: number; served: number }> {
  return new Promise((resolve, reject) => {
    // Workers do not inherit mocha's TypeScript loader: register tsx in the thread, then load the worker.
    const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(WORKER.href)}); })`;
    const worker = new Worker(boot, { eval: true, workerData: data });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

describe('SQLite usage counters across connections in parallel threads', function () {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'access-threads-'));
    file = path.join(dir, 'access.sqlite');
    SqliteAccessStore.open(file).close();
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Four threads, each with its own connection, deliver `calls` pages of new ids plus one shared id. */
  async function runThreads(calls: number, page: number, monthLimit: number) {
    const runs = await Promise.all([0, 1, 2, 3].map((worker) => runWorker({ file, account: 'threads', worker, calls, page, monthLimit, now: T0 })));
    const store = SqliteAccessStore.open(file);
    const usage = await store.readUsage(scopeAt('threads', T0));
    await store.close();
    return { usage, added: runs.reduce((sum, r) => sum + r.added, 0) };
  }

  it('never double counts nor loses a count (4 threads x 200 deliveries)', async function () {
    const { usage, added } = await runThreads(200, 5, 1_000_000);
    expect(usage.month).to.equal(4 * 200 * 5 + 1);
    expect(added).to.equal(usage.month);
  });

  it('overshoots the monthly limit by less than one page', async function () {
    const { usage, added } = await runThreads(50, 6, 300);
    // A page is 6 new ids plus the shared one.
    expect(usage.month)
      .to.be.at.least(300)
      .and.below(300 + 7);
    expect(added).to.equal(usage.month);
  });
});
