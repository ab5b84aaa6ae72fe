/**
 * One indexer load as `npm run indexer -- load` runs it (indexer/cli.ts loadWithProgress: the same
 * store, stages and parse worker), for the kill test (crash.test.ts), with what that test needs:
 *   CRASH_AT=<upsertMany|upsertGroupFields>:<n>:<before|after>  SIGKILLs this process at the n-th
 *       such write of the load, just before it or once it returned (the kill test's fixed points; a
 *       first build kept aside writes its pages through firstBuildAside.writePage, counted as upsertMany);
 *   BULK_COMMIT_ROWS  rows per transaction of a first build (a small file then commits several times);
 *   stderr "phase write" at its first write and "phase build" when the records are written and the
 *   store's final build starts, so that the parent can kill it at a random time of either phase.
 * Prints the load's report on stdout; exits as the CLI (exitCodeOf: 4 when an input was damaged).
 */
import { loadConfig } from '../../src/config/config.js';
import { openListingStore } from '../../src/open-listing-store.js';
import type { ListingStore } from '../../src/core/ports/listing-store.js';
import { loadWithProgress, exitCodeOf } from '../../indexer/load-with-progress.js';

const files = process.argv.slice(2);
const config = loadConfig(process.env);
const store = await openListingStore(config, { cacheMiB: 16, bulkCommitRows: Number(process.env.BULK_COMMIT_ROWS ?? 20_000) });
const [crashOp, crashAt, crashWhen] = (process.env.CRASH_AT ?? '').split(':');
const calls = new Map<string, number>();

const die = (): never => {
  process.kill(process.pid, 'SIGKILL');
  throw new Error('unreachable');
};

/** `write` counted as a write named `name`, with the kill test's fixed point around it. */
function counted(name: string, write: (...args: unknown[]) => Promise<unknown>) {
  return async (...args: unknown[]) => {
    if (calls.size === 0) process.stderr.write('phase write\n');
    const n = (calls.get(name) ?? 0) + 1;
    calls.set(name, n);
    const hit = name === crashOp && n === Number(crashAt);
    if (hit && crashWhen === 'before') die();
    const result = await write(...args);
    if (hit) die();
    return result;
  };
}

const wrapped = new Proxy(store, {
  get(target, name, receiver) {
    const value = Reflect.get(target, name, receiver) as unknown;
    // A first build kept aside (Elasticsearch) writes its pages through writePage: they are that
    // load's upsertMany, counted and killed as such.
    if (name === 'capabilities' && target.capabilities.firstBuildAside) {
      const aside = target.capabilities.firstBuildAside;
      return { ...target.capabilities, firstBuildAside: { ...aside, writePage: counted('upsertMany', (listings) => aside.writePage(listings as never)) } };
    }
    if (typeof value !== 'function') return value;
    if (name === 'duringBulkLoad') {
      return <T>(load: () => Promise<T>) =>
        target.duringBulkLoad(async () => {
          const result = await load();
          process.stderr.write('phase build\n');
          return result;
        });
    }
    if (name !== 'upsertMany' && name !== 'upsertGroupFields') return value.bind(target);
    return counted(name, (...args) => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args));
  },
}) as ListingStore;

try {
  const report = await loadWithProgress(files, wrapped, process.env.REJECTS_FILE ?? null);
  console.log(JSON.stringify(report));
  process.exitCode = exitCodeOf(report);
} finally {
  await store.close();
}
