/**
 * The embedded adapter under real parallelism: several worker threads, each with its own connection
 * to one access file (as several API processes would be). BEGIN IMMEDIATE serialises the counts.
 */
import { expect } from 'chai';
import { Worker } from 'node:worker_threads';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SqliteAccessStore } from '../../src/stores/sqlite/access-store.js';
import { T0, scopeAt } from '../conformance/access/scopes.js';

const WORKER = new URL('./support/sqlite-consumer.ts', import.meta.url);

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

  it('never double counts nor loses a count (4 threads x 200 deliveries)', async function () {
    const runs = await Promise.all([0, 1, 2, 3].map((worker) =>
      runWorker({ file, account: 'threads', worker, calls: 200, page: 5, monthLimit: 1_000_000, now: T0 })));
    const store = SqliteAccessStore.open(file);
    const usage = await store.readUsage(scopeAt('threads', T0));
    await store.close();
    expect(usage.month).to.equal(4 * 200 * 5 + 1);
    expect(runs.reduce((sum, r) => sum + r.added, 0)).to.equal(usage.month);
  });

  it('overshoots the monthly limit by less than one page', async function () {
    const runs = await Promise.all([0, 1, 2, 3].map((worker) =>
      runWorker({ file, account: 'threads', worker, calls: 50, page: 6, monthLimit: 300, now: T0 })));
    const store = SqliteAccessStore.open(file);
    const usage = await store.readUsage(scopeAt('threads', T0));
    await store.close();
    expect(usage.month).to.be.at.least(300).and.below(300 + 7);
    expect(runs.reduce((sum, r) => sum + r.added, 0)).to.equal(usage.month);
  });
});
