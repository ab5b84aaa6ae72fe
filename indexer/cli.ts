/**
 * Indexer command line.
 *   npm run indexer -- load <file>... [--rejects <file|dir/>] load NDJSON (plain or .gz) into the store,
 *                      [--group-in-worker]                  grouping cross-site duplicates (indexer/dedup);
 *                                                           a first build into SQLite may group in a
 *                                                           worker thread (faster, more memory: docs/operations.md)
 *                      [--snapshot SITE[:DEPT,...]          the files hold every active listing of that site
 *                       [--absent-loads N] [--min-ratio R]] (or departments): the ones missed N snapshots in
 *                                                           a row are withdrawn (indexer/snapshot.ts)
 *   npm run indexer -- dedup --rebuild                       regroup the whole catalogue from the store
 *   npm run indexer -- dedup explain <src>/<ref> <src>/<ref> why two listings are or are not one group
 *   npm run indexer -- status                                the store as JSON: counts by status, last load,
 *                                                           writer lock, grouping pending, what is behind the code
 *   npm run indexer -- reindex [--shards N]                  Elasticsearch: build annonces-v<N+1> from
 *                                                           mappings/ and swap the alias (no downtime),
 *                                                           with N primary shards (default: by the
 *                                                           catalogue's size, docs/elasticsearch.md);
 *                                                           SQLite: rebuild the full-text index, ANALYZE
 * The store is the one the API uses: Elasticsearch when ES_URL is set, else SQLite in DATA_DIR.
 * Exit status (exit-codes.ts): 0; 1 a failure; 2 a usage error (nothing changed); 3 another writer
 * holds the store, retry later; 4 a load ran to its end but an input was damaged (a cut or corrupt
 * gzip, bytes after it, a cut last line: what was readable is loaded); 5 the store is misconfigured
 * (an Elasticsearch alias missing), fix it before retrying.
 */
import { parseArgs } from 'node:util';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../src/config/config.js';
import { loadSites } from '../src/core/model/sites.js';
import { listingStoreStatus, openListingStore, reindexListingStore } from '../src/open-listing-store.js';
import type { ListingIndex } from '../src/core/ports/listing-index.js';
import { listingId } from '../src/core/model/stored.js';
import { explainPair } from './dedup/explain.js';
import { exitCodeOf, loadWithProgress } from './load-with-progress.js';
import { EXIT, exitOfError } from './exit-codes.js';
import { rejectsFileFor } from './rejects.js';
import { processFigures } from './process-figures.js';
import { loadCommunes } from '../src/core/refdata/communes.js';
import { snapshotOptionsOf } from './snapshot-options.js';
import type { SnapshotReport } from './snapshot.js';
import { rebuildGroups } from './dedup/rebuild.js';
import { IndexerMetrics } from './metrics.js';
import { metricsSource, startMetricsServer } from '../src/metrics-server.js';

/**
 * SQLite page cache of a load, in MiB (the API keeps its own, larger one). A load's hot pages are the
 * id and block indexes and the table's tail; the rest of a block read comes from the OS page cache,
 * which holds the store anyway. A larger cache made loads no faster and raised their memory peak
 * (npm run bench -- --indexer); it is part of the indexer's peak-RSS budget.
 */
const INDEXER_CACHE_MIB = 16;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const config = loadConfig(process.env);
  if (command === 'load') {
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: {
        rejects: { type: 'string' },
        'group-in-worker': { type: 'boolean' },
        snapshot: { type: 'string' },
        'absent-loads': { type: 'string' },
        'min-ratio': { type: 'string' },
      },
    });
    if (positionals.length === 0) return usage('load needs at least one file');
    const snapshot = snapshotOptionsOf(values, loadSites(), loadCommunes());
    if (snapshot !== null && 'error' in snapshot) return usage(snapshot.error);
    const rejectsFile = values.rejects === undefined ? null : rejectsFileFor(values.rejects, new Date());
    if (rejectsFile !== null && !existsSync(path.dirname(path.resolve(rejectsFile)))) return usage(`--rejects: no directory ${path.dirname(rejectsFile)}`);
    mkdirSync(config.dataDir, { recursive: true });
    const store = await openListingStore(config, { cacheMiB: INDEXER_CACHE_MIB }, 'batch');
    const metrics = config.metricsPort === null ? undefined : new IndexerMetrics();
    const metricsServer = metrics ? await startMetricsServer(metricsSource(metrics), config.metricsPort!, config.host) : null;
    let report: Awaited<ReturnType<typeof loadWithProgress>> | undefined;
    try {
      // runLoad runs inside the store's bulk mode (Elasticsearch: refresh off; SQLite: first build).
      report = await loadWithProgress(positionals, store, rejectsFile, {
        groupInWorker: values['group-in-worker'] === true,
        metrics,
        snapshot: snapshot ?? undefined,
      });
      // A guard held: the operator hears of it beside the report, which says the same.
      if (report.snapshot?.not_swept) console.error(`snapshot of ${scopeName(report.snapshot)}: nothing withdrawn: ${report.snapshot.not_swept}`);
      await recordLoad(store, { ...report, rejects_file: rejectsFile });
    } finally {
      metricsServer?.close();
      try {
        await store.close();
      } finally {
        // After the close, so that the store's last checkpoint is in the bytes written; printed even if the close fails.
        if (report) console.log(JSON.stringify({ ...report, rejects_file: rejectsFile, ...processFigures() }));
      }
    }
    return exitCodeOf(report);
  }
  if (command === 'dedup') {
    const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { rebuild: { type: 'boolean' } } });
    if (positionals[0] === 'explain') return explain(config, positionals.slice(1));
    if (!values.rebuild) return usage('dedup needs --rebuild or explain');
    mkdirSync(config.dataDir, { recursive: true });
    const store = await openListingStore(config, {}, 'batch');
    try {
      const report = await rebuildGroups({
        store,
        sites: loadSites(),
        onProgress: (r) => {
          if (process.stderr.isTTY) process.stderr.write(`\rregrouping: ${r.bases} blocks, ${r.rewritten} rewritten`);
        },
      });
      if (process.stderr.isTTY) process.stderr.write('\n');
      console.log(JSON.stringify(report));
      return 0;
    } finally {
      await store.close();
    }
  }
  if (command === 'status') {
    const { positionals } = parseArgs({ args: rest, allowPositionals: true, options: {} });
    if (positionals.length > 0) return usage('status takes no argument');
    const status = await listingStoreStatus(config);
    if (status === null) {
      console.error(`no store in ${config.dataDir} (listings.sqlite missing): check DATA_DIR, or load a first file`);
      return EXIT.misconfigured;
    }
    console.log(JSON.stringify(status, null, 2));
    return EXIT.ok;
  }
  if (command === 'reindex') {
    const { values } = parseArgs({ args: rest, options: { shards: { type: 'string' } } });
    const shards = values.shards === undefined ? null : Number(values.shards);
    if (shards !== null && !(Number.isInteger(shards) && shards >= 1 && shards <= 1024))
      return usage(`--shards takes an integer from 1 to 1024, got "${values.shards}"`);
    if (shards !== null && !config.elasticsearch) return usage('--shards is for an Elasticsearch store (ES_URL): a SQLite store has no shards');
    console.log(JSON.stringify(await reindexListingStore(config, (n) => process.stderr.write(`\rcopied ${n}`), { shards })));
    return 0;
  }
  return usage(command ? `unknown command ${command}` : 'missing command');
}

/** Keeps the report for `status`; a store that cannot keep it does not turn a done load into a failure. */
async function recordLoad(store: ListingIndex, report: Record<string, unknown>): Promise<void> {
  try {
    await store.recordLoad(report, Date.now());
  } catch (error) {
    console.error(`the load's report could not be kept for \`status\`: ${(error as Error).message}`);
  }
}

/** `dedup explain a b`: why two stored listings are or are not one group (indexer/dedup/explain.ts). */
async function explain(config: ReturnType<typeof loadConfig>, ids: string[]): Promise<number> {
  if (ids.length !== 2) return usage('dedup explain needs two listings, <source>/<reference> <source>/<reference>');
  const wanted = ids.map(listingIdOf);
  const store = await openListingStore(config, {}, 'batch');
  try {
    const listings = await store.getMany(wanted);
    const unknown = wanted.filter((id) => !listings.has(id));
    if (unknown.length > 0) {
      console.error(`no listing ${unknown.join(', ')} in the store`);
      return 1;
    }
    console.log(explainPair(listings.get(wanted[0])!, listings.get(wanted[1])!).join('\n'));
    return 0;
  } finally {
    await store.close();
  }
}

/** `seloger/262973311` (or the store id `seloger:262973311`): the source is what comes before the first separator. */
function listingIdOf(text: string): string {
  const at = text.search(/[/:]/);
  return at > 0 ? listingId(text.slice(0, at), text.slice(at + 1)) : text;
}

function scopeName(snapshot: SnapshotReport): string {
  return snapshot.departments === null ? snapshot.site : `${snapshot.site}:${snapshot.departments.join(',')}`;
}

function usage(problem: string): number {
  console.error(
    `${problem}\nusage: npm run indexer -- load <file.ndjson[.gz]>... [--rejects rejects.ndjson|DIR/] [--group-in-worker]\n         [--snapshot SITE[:DEPT,...] [--absent-loads N] [--min-ratio R]]\n       npm run indexer -- dedup --rebuild\n       npm run indexer -- dedup explain <source>/<reference> <source>/<reference>\n       npm run indexer -- status\n       npm run indexer -- reindex [--shards N]`,
  );
  return EXIT.usage;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      // A mistyped option is the operator's, not a crash: its message and the usage, exit 2.
      if ((error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS_')) {
        process.exitCode = usage((error as Error).message);
        return;
      }
      const exit = exitOfError(error);
      console.error(exit.message ?? error);
      process.exitCode = exit.code;
    },
  );
}
