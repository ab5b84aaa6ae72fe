/**
 * The benchmark catalogue, built once per size and cached in .bench-cache/<N>/ (gitignored):
 *   sample.ndjson.gz   N raw collector records from the real sample generator (indexer/sample)
 *   data/              DATA_DIR of the server: listings.sqlite loaded by the real indexer CLI
 *   build.json         how the load went (records/s, peak RSS, seconds): written last, so a
 *                      half-built cache (killed load) is detected and rebuilt
 * The indexer runs as a child process, exactly as an operator runs `npm run indexer -- load`.
 */
import { createHash, type Hash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { writeSample } from '../../indexer/sample/write.js';
import { isGzip } from '../../indexer/read.js';
import { INDEXER_ENV, INDEXER_NODE_FLAGS } from '../../indexer/heap.js';
import type { LoadReport } from '../../indexer/load.js';
import type { ProcessFigures } from '../../indexer/process-figures.js';
import { childEnv, readStatusMiB, REPO_ROOT, runTs } from './child.js';
import { formatBytes, integer, log } from './report.js';
import { readListingCount, type MemorySample } from './memory-curve.js';

export const CACHE_ROOT = path.join(REPO_ROOT, '.bench-cache');
const SAMPLE_FILE = 'sample.ndjson.gz';

/** A progress line of a load every 30 s; its memory and listings written sampled every 5 s (memory-curve.ts). */
const HEARTBEAT_MS = 30_000;
export const MEMORY_SAMPLE_MS = 5_000;

export interface LoadFigures {
  records: number;
  written: number;
  rejected: number;
  /** Seconds of the indexer's own report (reading to last commit). */
  indexerSeconds: number;
  /** Records per second as the indexer reports them. */
  recordsPerSecond: number;
  /** Wall seconds of the whole child process (start-up, load, close + checkpoint). */
  wallSeconds: number;
  /** Records per second over the wall time: the end-to-end figure. */
  endToEndPerSecond: number;
  peakRssMiB: number | null;
  /**
   * The indexer's own phase figures (indexer/load.ts LoadReport): seconds until the last record was
   * written (the rest is the bulk mode's final build), and its peak RSS (MiB) then. Absent in older caches.
   */
  writeSeconds?: number;
  /** The part of writeSeconds a first build spent grouping once its records were written (LoadReport grouping_seconds). Absent in older caches. */
  groupingSeconds?: number;
  peakRssMiBWriting?: number;
  /** Listing documents the load wrote per listing written (LoadReport index_operations_per_listing); absent in older caches. */
  indexOperationsPerListing?: number;
  /** CPU seconds of the indexer process, all its threads (indexer/process-figures.ts); absent in older caches. */
  cpuSeconds?: number;
  /** Bytes the indexer process sent to storage, its last checkpoint included (Linux write_bytes); absent in older caches or elsewhere. */
  diskWrittenBytes?: number | null;
  storeBytes: number;
  builtAt: string;
  /** Fingerprint of the code that built it (codeFingerprint()); absent in older caches. */
  code?: string;
  /** The child's memory and the listings written, sampled during the load (memory-curve.ts); absent in older caches. */
  memory?: MemorySample[];
}

export interface Catalogue {
  listings: number;
  dir: string;
  sampleFile: string;
  dataDir: string;
  storeFile: string;
  storeBytes: number;
  build: LoadFigures;
}

export function cacheDir(listings: number): string {
  return path.join(CACHE_ROOT, String(listings));
}

/**
 * The raw records of size N, generated once (shared by the API and the indexer benchmarks), gzipped
 * as collectors deliver them, so the load's read stage gunzips as in production. A cached file that
 * is not gzip was written by an older harness (which wrote plain NDJSON under this name) and is
 * generated again.
 */
export async function ensureSample(listings: number, dir = cacheDir(listings)): Promise<string> {
  const file = path.join(dir, SAMPLE_FILE);
  if (existsSync(file)) {
    if (await isGzip(file)) return file;
    log(`${path.relative(REPO_ROOT, file)} is plain NDJSON (an older harness's file): generating it again, gzipped`);
    rmSync(file);
  }
  mkdirSync(dir, { recursive: true });
  // The writer gzips by the name's ending: the partial file keeps it.
  const partial = path.join(dir, `partial-${SAMPLE_FILE}`);
  log(`generating ${listings} raw records with the sample generator -> ${path.relative(REPO_ROOT, file)}`);
  const every = Math.max(10_000, Math.round(listings / 10));
  let reported = 0;
  const summary = await writeSample({
    count: listings,
    out: partial,
    onProgress: (n) => {
      if (n < listings && n - reported >= every) {
        reported = n;
        log(`  ${n} records`);
      }
    },
  });
  renameSync(partial, file);
  log(`  ${summary.records} records (${summary.properties} properties) in ${summary.seconds} s, ${formatBytes(statSync(file).size)} gzipped`);
  return file;
}

export async function ensureCatalogue(listings: number, options: { rebuild: boolean }): Promise<Catalogue> {
  const dir = cacheDir(listings);
  const dataDir = path.join(dir, 'data');
  const storeFile = path.join(dataDir, 'listings.sqlite');
  const buildFile = path.join(dir, 'build.json');
  // --rebuild regenerates the records too (after a change of the sample generator).
  if (options.rebuild) for (const stale of [dataDir, path.join(dir, SAMPLE_FILE)]) rmSync(stale, { recursive: true, force: true });
  if (!options.rebuild && existsSync(buildFile) && existsSync(storeFile)) {
    const build = JSON.parse(readFileSync(buildFile, 'utf8')) as LoadFigures;
    log(`catalogue of ${listings} listings: cached in ${path.relative(REPO_ROOT, dir)} (built ${build.builtAt})`);
    if (build.code !== codeFingerprint()) {
      log(
        '  WARNING: the indexer, the sample generator or the SQLite schema changed since this catalogue was built; ' +
          'its figures describe the older code (npm run bench -- --rebuild to build it again)',
      );
    }
    return { listings, dir, sampleFile: path.join(dir, SAMPLE_FILE), dataDir, storeFile, storeBytes: storeBytes(storeFile), build };
  }
  const sampleFile = await ensureSample(listings);
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(buildFile, { force: true });
  log(`loading it with the indexer (npm run indexer -- load) into ${path.relative(REPO_ROOT, dataDir)}`);
  const build = await loadWithIndexer(sampleFile, dataDir, path.join(dir, 'rejects.ndjson'));
  writeFileSync(buildFile, JSON.stringify(build, null, 2));
  return { listings, dir, sampleFile, dataDir, storeFile, storeBytes: build.storeBytes, build };
}

/**
 * One run of the real indexer CLI as a child process on a fresh DATA_DIR: its own report
 * (records/s), the wall time of the process, its peak RSS, and its memory against the listings
 * written, sampled as it goes (memory-curve.ts). A heartbeat line every 30 s shows that a long load is
 * alive and how its memory stands.
 */
/**
 * Where a load goes: the environment that selects the store for the indexer CLI, and how the
 * benchmark watches it (listings it holds, bytes on disk). SQLite: a DATA_DIR (sqliteTarget);
 * Elasticsearch: ES_URL and ES_INDEX_ALIAS (es-catalogue.ts).
 */
export interface LoadTarget {
  env: Record<string, string>;
  /** Listings the store holds now (sampled along the load); null when not known yet. */
  listings(): Promise<number | null>;
  /** Bytes of the store on disk now. */
  bytes(): Promise<number>;
}

export function sqliteTarget(dataDir: string): LoadTarget {
  const storeFile = path.join(dataDir, 'listings.sqlite');
  return { env: { DATA_DIR: dataDir }, listings: async () => readListingCount(storeFile), bytes: async () => storeBytes(storeFile) };
}

export async function loadWithIndexer(
  sampleFile: string,
  into: string | LoadTarget,
  rejectsFile: string,
  nodeFlags: string[] = [],
  sampleEveryMs = MEMORY_SAMPLE_MS,
): Promise<LoadFigures> {
  const target = typeof into === 'string' ? sqliteTarget(into) : into;
  if (target.env.DATA_DIR) mkdirSync(target.env.DATA_DIR, { recursive: true });
  const code = codeFingerprint();
  const started = Date.now();
  const memory: MemorySample[] = [];
  let sampler: NodeJS.Timeout | undefined;
  const heartbeat = setInterval(() => {
    const last = memory.at(-1);
    const progress = last ? `, ${integer(last.listings)} listings, RSS ${last.rssMiB?.toFixed(0) ?? '-'} MiB (peak ${last.peakMiB?.toFixed(0) ?? '-'})` : '';
    void target.bytes().then(
      (bytes) => log(`  ... ${Math.round((Date.now() - started) / 1000)} s, store ${formatBytes(bytes)}${progress}`),
      () => {},
    );
  }, HEARTBEAT_MS);
  try {
    const onSpawn = (pid: number) => {
      sampler = setInterval(() => {
        // The memory at this moment; the listings when the store answers (an HTTP call for Elasticsearch).
        const sample: MemorySample = {
          seconds: (Date.now() - started) / 1000,
          listings: null,
          peakMiB: readStatusMiB(pid, 'VmHWM'),
          rssMiB: readStatusMiB(pid, 'VmRSS'),
        };
        void target
          .listings()
          .then(
            (n) => {
              sample.listings = n;
            },
            () => {},
          )
          .finally(() => memory.push(sample));
      }, sampleEveryMs);
    };
    const run = await runTs('indexer/cli.ts', ['load', sampleFile, '--rejects', rejectsFile], childEnv({ ...INDEXER_ENV, ...target.env }), {
      echoStderr: true,
      nodeFlags: [...INDEXER_NODE_FLAGS, ...nodeFlags],
      onSpawn,
    });
    clearInterval(sampler);
    if (run.code !== 0) throw new Error(`indexer exited with ${run.code}:\n${run.stderr.slice(-2000)}`);
    const reportLine = run.stdout
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .at(-1);
    if (!reportLine) throw new Error(`indexer printed no report:\n${run.stdout.slice(-2000)}`);
    const report = JSON.parse(reportLine) as Pick<
      LoadReport,
      | 'read'
      | 'written'
      | 'rejected'
      | 'seconds'
      | 'records_per_second'
      | 'write_seconds'
      | 'grouping_seconds'
      | 'peak_rss_mib_writing'
      | 'index_operations_per_listing'
    > &
      Partial<ProcessFigures & Pick<LoadReport, 'longest_event_loop_pause_ms'>>;
    const figures: LoadFigures = {
      records: report.read,
      written: report.written,
      rejected: report.rejected,
      indexerSeconds: report.seconds,
      recordsPerSecond: report.records_per_second,
      wallSeconds: round(run.seconds, 2),
      endToEndPerSecond: Math.round(report.read / run.seconds),
      peakRssMiB: run.peakRssMiB === null ? null : round(run.peakRssMiB, 1),
      writeSeconds: report.write_seconds,
      groupingSeconds: report.grouping_seconds,
      indexOperationsPerListing: report.index_operations_per_listing,
      peakRssMiBWriting: report.peak_rss_mib_writing,
      cpuSeconds: report.cpu_seconds,
      diskWrittenBytes: report.disk_written_bytes,
      storeBytes: await target.bytes(),
      builtAt: new Date().toISOString(),
      code,
      memory: memory.sort((a, b) => a.seconds - b.seconds),
    };
    log(
      `  ${figures.records} records (${figures.written} written, ${figures.rejected} rejected): ${figures.recordsPerSecond} records/s ` +
        `(indexer report), ${figures.endToEndPerSecond} records/s end to end (${figures.wallSeconds} s), peak RSS ${figures.peakRssMiB} MiB, ` +
        `store ${formatBytes(figures.storeBytes)}; the records written in ${figures.writeSeconds} s, of which ${figures.groupingSeconds ?? 0} s grouping them at the end (peak RSS then ${figures.peakRssMiBWriting} MiB), ` +
        `then ${round(figures.indexerSeconds - (figures.writeSeconds ?? 0), 2)} s of final index build; ` +
        `${coresBusy(figures)?.toFixed(2) ?? '-'} cores busy, ${figures.diskWrittenBytes ? formatBytes(figures.diskWrittenBytes) : '-'} written to disk; ` +
        `${figures.indexOperationsPerListing ?? '-'} index operations per listing, longest event-loop pause ${report.longest_event_loop_pause_ms ?? '-'} ms`,
    );
    return figures;
  } finally {
    clearInterval(heartbeat);
    clearInterval(sampler);
  }
}

/** Size of the store on disk: the database file plus its WAL when one is left. */
/** CPU seconds over wall seconds of the load's process: 2 means both cores of a 2-core machine busy throughout. */
export function coresBusy(figures: LoadFigures): number | null {
  return figures.cpuSeconds === undefined ? null : figures.cpuSeconds / figures.wallSeconds;
}

export function storeBytes(storeFile: string): number {
  let total = 0;
  for (const file of [storeFile, `${storeFile}-wal`]) if (existsSync(file)) total += statSync(file).size;
  return total;
}

/** Hash of the sources that decide what a catalogue holds: indexer/ (with the sample generator) and src/adapters/sqlite-listings/. */
export function codeFingerprint(): string {
  const hash = createHash('sha1');
  hashSources(hash, 'indexer');
  hashSources(hash, 'src/adapters/sqlite-listings');
  return hash.digest('hex').slice(0, 12);
}

/** Feeds the path and text of every .ts file below `dir` (relative to the repository), in a fixed order, to the hash. */
export function hashSources(hash: Hash, dir: string, skip: ReadonlySet<string> = new Set()): void {
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts') && !skip.has(entry.name)) hash.update(full.slice(REPO_ROOT.length)).update(readFileSync(full));
    }
  };
  walk(path.join(REPO_ROOT, dir));
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
