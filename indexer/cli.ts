/**
 * Indexer command line.
 *   npm run indexer -- load <file>... [--rejects <file>]     load NDJSON (plain or .gz) into the store,
 *                      [--group-in-worker]                  grouping cross-site duplicates (indexer/dedup);
 *                                                           a first build into SQLite may group in a
 *                                                           worker thread (faster, more memory: docs/operations.md)
 *   npm run indexer -- dedup --rebuild                       regroup the whole catalogue from the store
 *   npm run indexer -- dedup explain <src>/<ref> <src>/<ref> why two listings are or are not one group
 *   npm run indexer -- reindex                               Elasticsearch: build annonces-v<N+1> from
 *                                                           mappings/ and swap the alias (no downtime);
 *                                                           SQLite: rebuild the full-text index, ANALYZE
 * The store is the one the API uses: Elasticsearch when ES_URL is set, else SQLite in DATA_DIR.
 * Exit status: 0, 2 for a usage error, 4 when a load ran to its end but an input was damaged (a cut
 * or corrupt gzip, bytes after it, a cut last line: what was readable is loaded), 1 for a failure.
 */
import { parseArgs } from 'node:util';
import { mkdirSync } from 'node:fs';
import { loadConfig } from '../src/config/config.js';
import { loadSites } from '../src/core/model/sites.js';
import { openListingStore, reindexListingStore } from '../src/open-listing-store.js';
import { listingId } from '../src/core/model/stored.js';
import { explainPair } from './dedup/explain.js';
import { exitCodeOf, loadWithProgress } from './load-with-progress.js';
import { processFigures } from './process-figures.js';
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
      options: { rejects: { type: 'string' }, 'group-in-worker': { type: 'boolean' } },
    });
    if (positionals.length === 0) return usage('load needs at least one file');
    mkdirSync(config.dataDir, { recursive: true });
    const store = await openListingStore(config, { cacheMiB: INDEXER_CACHE_MIB });
    const metrics = config.metricsPort === null ? undefined : new IndexerMetrics();
    const metricsServer = metrics ? await startMetricsServer(metricsSource(metrics), config.metricsPort!, config.host) : null;
    let report: Awaited<ReturnType<typeof loadWithProgress>> | undefined;
    try {
      // runLoad runs inside the store's bulk mode (Elasticsearch: refresh off; SQLite: first build).
      report = await loadWithProgress(positionals, store, values.rejects ?? null, { groupInWorker: values['group-in-worker'] === true, metrics });
    } finally {
      metricsServer?.close();
      try {
        await store.close();
      } finally {
        // After the close, so that the store's last checkpoint is in the bytes written; printed even if the close fails.
        if (report) console.log(JSON.stringify({ ...report, ...processFigures() }));
      }
    }
    return exitCodeOf(report);
  }
  if (command === 'dedup') {
    const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { rebuild: { type: 'boolean' } } });
    if (positionals[0] === 'explain') return explain(config, positionals.slice(1));
    if (!values.rebuild) return usage('dedup needs --rebuild or explain');
    mkdirSync(config.dataDir, { recursive: true });
    const store = await openListingStore(config);
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
  if (command === 'reindex') {
    console.log(JSON.stringify(await reindexListingStore(config, (n) => process.stderr.write(`\rcopied ${n}`))));
    return 0;
  }
  return usage(command ? `unknown command ${command}` : 'missing command');
}

/** `dedup explain a b`: why two stored listings are or are not one group (indexer/dedup/explain.ts). */
async function explain(config: ReturnType<typeof loadConfig>, ids: string[]): Promise<number> {
  if (ids.length !== 2) return usage('dedup explain needs two listings, <source>/<reference> <source>/<reference>');
  const wanted = ids.map(listingIdOf);
  const store = await openListingStore(config);
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

/** The lock was lost mid-run (docs/operations.md): EX_TEMPFAIL of sysexits, a rerun is the remedy. */
const EXIT_FENCED = 75;

function usage(problem: string): number {
  console.error(
    `${problem}\nusage: npm run indexer -- load <file.ndjson[.gz]>... [--rejects rejects.ndjson] [--group-in-worker]\n       npm run indexer -- dedup --rebuild\n       npm run indexer -- dedup explain <source>/<reference> <source>/<reference>\n       npm run indexer -- reindex`,
  );
  return 2;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      // A mistyped option is the operator's, not a crash: its message and the usage, exit 2.
      if ((error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS_')) process.exitCode = usage((error as Error).message);
      else if ((error as Error).name === 'WriterBusyError' || (error as Error).name === 'MissingAliasError') {
        console.error((error as Error).message);
        process.exitCode = 3;
      } else if ((error as Error).name === 'WriterFencedError') {
        console.error((error as Error).message);
        process.exitCode = EXIT_FENCED;
      } else {
        console.error(error);
        process.exitCode = 1;
      }
    },
  );
}
