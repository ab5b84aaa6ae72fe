/**
 * The indexer benchmark: N raw records (generated once, cached in .bench-cache/<N>/) loaded by the
 * real indexer CLI, as a child process, into a FRESH store. Prints records/s (the indexer's own
 * figure and end to end, process start to exit) and the peak RSS of the indexer process (VmHWM).
 * Targets (INDEXER_TARGETS): records/s end to end, both cores busy, store size and disk written per
 * listing, peak RSS flat with the input.
 * With --engines elasticsearch (ES_URL), the same records go into a fresh alias of that Elasticsearch
 * (deleted afterwards); with both engines, one after the other, then side by side.
 */
import { rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { BenchOptions } from './options.js';
import { cacheDir, coresBusy, ensureSample, loadWithIndexer, MEMORY_SAMPLE_MS, type LoadFigures } from './catalogue.js';
import { machine } from './api-bench.js';
import { formatBytes, integer, log, markdownTable } from './report.js';
import { latestProfile, summariseProfile } from './profile.js';
import { measureStages, stagesTable } from './indexer-stages.js';
import { memoryCurveTable } from './memory-curve.js';
import { recordIndexerRun } from './charts.js';
import { deleteAlias, describeIndex, esTarget, loadIntoElasticsearch } from './es-catalogue.js';
import { DAILY_EVERY, ensureDailyFile } from './daily-file.js';
import { esIndexerRow, indexerSideBySide, LOAD_COLUMNS, sqliteIndexerRow, type IndexerRow } from './side-by-side.js';

export async function runIndexerBench(options: BenchOptions): Promise<void> {
  const sampleFile = await ensureSample(options.records);
  const dailyFile = await ensureDailyFile(sampleFile);
  const rows: IndexerRow[] = [];
  const daily: DailyRow[] = [];
  for (const engine of options.engines) {
    const run = engine === 'sqlite' ? await runSqliteIndexerBench(options, sampleFile, dailyFile) : await runEsIndexerBench(options, sampleFile, dailyFile);
    rows.push(run.row);
    daily.push(run.daily);
  }
  if (rows.length > 1) {
    process.stdout.write(
      `\n## Indexer, engines side by side: the same ${integer(options.records)} raw records, same run\n\n${machine()}\n\n${indexerSideBySide(rows)}\n`,
    );
  }
  process.stdout.write(
    `\n## The daily load: one record in ${DAILY_EVERY} of the catalogue changed a day later (lower prices, sold or withdrawn, published again, new copies on another site), loaded into the built catalogue\n\n${dailyTable(daily)}\n`,
  );
}

/** A daily load's records/s, held to DAILY_TARGET_PER_SECOND, and what it wrote per listing. */
export const DAILY_TARGET_PER_SECOND = 5_000;

interface DailyRow {
  engine: string;
  figures: LoadFigures;
}

export function dailyTable(rows: DailyRow[]): string {
  return markdownTable(
    ['engine', 'records', 'written', 'rejected', 'indexer records/s', 'end-to-end records/s', 'index operations per listing', 'result'],
    rows.map(({ engine, figures }) => [
      engine,
      integer(figures.records),
      integer(figures.written),
      integer(figures.rejected),
      integer(figures.recordsPerSecond),
      integer(figures.endToEndPerSecond),
      figures.indexOperationsPerListing?.toFixed(3) ?? '-',
      figures.endToEndPerSecond >= DAILY_TARGET_PER_SECOND
        ? 'records/s met'
        : `records/s MISSED (${integer(figures.endToEndPerSecond)} < ${integer(DAILY_TARGET_PER_SECOND)})`,
    ]),
  );
}

/**
 * The same records loaded by the indexer CLI into a FRESH alias of the Elasticsearch of ES_URL
 * (`bench-indexer-<N>-<pid>`, deleted afterwards): records/s, the indexer's peak RSS, and how the index
 * stands after the load (store size, shards, replicas, the node's heap).
 */
async function runEsIndexerBench(options: BenchOptions, sampleFile: string, dailyFile: string): Promise<{ row: IndexerRow; daily: DailyRow }> {
  const url = options.esUrl!;
  const alias = `bench-indexer-${options.records}-${process.pid}`;
  const runDir = path.join(cacheDir(options.records), 'es-indexer-run');
  log(`indexer benchmark, Elasticsearch: loading ${options.records} records into a fresh alias ${alias} on ${url}`);
  try {
    const load = await loadIntoElasticsearch(sampleFile, url, alias, runDir);
    const peakMB = load.peakRssMiB === null ? null : (load.peakRssMiB * 1024 * 1024) / 1e6;
    process.stdout.write(
      `${[
        '',
        `## Indexer benchmark, Elasticsearch: ${integer(options.records)} raw records`,
        '',
        machine(),
        `- ${describeIndex(url, alias, load.index)} (alias deleted after the run)`,
        '',
        markdownTable(
          ['records', 'written', 'rejected', 'indexer records/s', 'end-to-end records/s', 'wall s', 'indexer peak RSS', 'index on disk', 'result'],
          [
            [
              integer(load.records),
              integer(load.written),
              integer(load.rejected),
              integer(load.recordsPerSecond),
              integer(load.endToEndPerSecond),
              load.wallSeconds.toFixed(1),
              peakMB === null ? '-' : `${peakMB.toFixed(0)} MB`,
              formatBytes(load.index.storeBytes),
              load.endToEndPerSecond >= INDEXER_TARGETS.endToEndPerSecond
                ? 'records/s met'
                : `records/s MISSED (${integer(load.endToEndPerSecond)} < ${integer(INDEXER_TARGETS.endToEndPerSecond)})`,
            ],
          ],
        ),
        '',
        `Memory against the input (sampled every ${MEMORY_SAMPLE_MS / 1000} s; listings: documents indexed into the primaries so far, refresh being off during the load):`,
        '',
        memoryCurveTable(load.memory ?? []),
        '',
      ].join('\n')}\n`,
    );
    log(`the daily load into ${alias}: ${path.relative(process.cwd(), dailyFile)}`);
    const dailyDir = path.join(cacheDir(options.records), 'es-daily-run');
    const daily = await loadWithIndexer(dailyFile, esTarget(url, alias, dailyDir), path.join(dailyDir, 'rejects.ndjson'));
    rmSync(dailyDir, { recursive: true, force: true });
    return { row: esIndexerRow(load), daily: { engine: 'Elasticsearch', figures: daily } };
  } finally {
    await deleteAlias(url, alias);
  }
}

/** The indexer's targets: records/s end to end, both cores busy, store and disk written per listing, flat memory. */
export const INDEXER_TARGETS = { endToEndPerSecond: 8_000, coresBusy: 1.8, kbPerListing: 5, diskWrittenPerStoreByte: 1.5, peakRssMB: 400 };

export function indexerVerdict(figures: LoadFigures, peakMB: number | null): string {
  const t = INDEXER_TARGETS;
  const busy = coresBusy(figures);
  const kb = figures.storeBytes / Math.max(figures.written, 1) / 1000;
  const written = figures.diskWrittenBytes ? figures.diskWrittenBytes / figures.storeBytes : null;
  const check = (name: string, value: number | null, ok: (v: number) => boolean, shown: string, target: string) =>
    value === null ? `${name} n/a` : ok(value) ? `${name} met` : `${name} MISSED (${shown}, target ${target})`;
  return [
    check('records/s', figures.endToEndPerSecond, (v) => v >= t.endToEndPerSecond, integer(figures.endToEndPerSecond), `>= ${integer(t.endToEndPerSecond)}`),
    check('cores', busy, (v) => v >= t.coresBusy, busy?.toFixed(2) ?? '-', `>= ${t.coresBusy}`),
    check('store', kb, (v) => v <= t.kbPerListing, `${kb.toFixed(2)} KB`, `<= ${t.kbPerListing} KB`),
    check('written', written, (v) => v <= t.diskWrittenPerStoreByte, written?.toFixed(2) ?? '-', `<= ${t.diskWrittenPerStoreByte}`),
    check('RSS', peakMB, (v) => v < t.peakRssMB, `${peakMB?.toFixed(0)} MB`, `< ${t.peakRssMB} MB`),
  ].join('; ');
}

async function runSqliteIndexerBench(options: BenchOptions, sampleFile: string, dailyFile: string): Promise<{ row: IndexerRow; daily: DailyRow }> {
  const runDir = path.join(cacheDir(options.records), 'indexer-run');
  rmSync(runDir, { recursive: true, force: true });
  log(`indexer benchmark: loading ${options.records} records into a fresh store in ${runDir}`);
  try {
    const profileDir = path.join(cacheDir(options.records), 'profiles');
    const figures = await loadWithIndexer(
      sampleFile,
      path.join(runDir, 'data'),
      path.join(runDir, 'rejects.ndjson'),
      options.profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
    );
    const megabytes = (mib: number | null | undefined) => (mib === null || mib === undefined ? null : (mib * 1024 * 1024) / 1e6);
    const peakMB = megabytes(figures.peakRssMiB);
    const writingMB = megabytes(figures.peakRssMiBWriting);
    const writeSeconds = figures.writeSeconds ?? figures.indexerSeconds;
    const groupingSeconds = figures.groupingSeconds ?? 0;
    const recordSeconds = writeSeconds - groupingSeconds;
    const report = [
      '',
      `## Indexer benchmark: ${integer(options.records)} raw records`,
      '',
      machine(),
      '',
      markdownTable(
        [...LOAD_COLUMNS, 'cores busy', 'peak RSS', 'store', 'per listing', 'disk written / store', 'result'],
        [
          [
            integer(figures.records),
            integer(figures.written),
            integer(figures.rejected),
            integer(figures.recordsPerSecond),
            integer(figures.endToEndPerSecond),
            figures.wallSeconds.toFixed(1),
            coresBusy(figures)?.toFixed(2) ?? '-',
            peakMB === null ? '-' : `${peakMB.toFixed(0)} MB`,
            formatBytes(figures.storeBytes),
            `${(figures.storeBytes / Math.max(figures.written, 1) / 1000).toFixed(2)} KB`,
            figures.diskWrittenBytes ? (figures.diskWrittenBytes / figures.storeBytes).toFixed(2) : '-',
            indexerVerdict(figures, peakMB),
          ],
        ],
      ),
      '',
      // Where the time and the peak memory went: writing the records, grouping them (a first build
      // groups once its records are written), then the final index build (at 5M the last runs over a
      // store bigger than the page cache).
      markdownTable(
        ['phase', 'seconds', 'records/s', 'peak RSS at its end'],
        [
          ['writing the records', recordSeconds.toFixed(1), integer(Math.round(figures.records / Math.max(recordSeconds, 0.001))), '-'],
          ['grouping them at the end (a first build)', groupingSeconds.toFixed(1), '-', writingMB === null ? '-' : `${writingMB.toFixed(0)} MB`],
          ['final index build (bulk mode)', (figures.indexerSeconds - writeSeconds).toFixed(1), '-', peakMB === null ? '-' : `${peakMB.toFixed(0)} MB`],
        ],
      ),
      '',
      // The target says memory must not grow with the input: the peak against the listings written.
      `Memory against the input (sampled every ${MEMORY_SAMPLE_MS / 1000} s; listings as committed):`,
      '',
      memoryCurveTable(figures.memory ?? []),
      '',
    ].join('\n');
    const profileFile = options.profile ? latestProfile(profileDir) : null;
    const charts = await recordIndexerRun({
      label: `${new Date().toISOString().slice(0, 16)}Z, peak RSS ${peakMB === null ? '-' : `${peakMB.toFixed(0)} MB`}`,
      records: figures.records,
      recordsPerSecond: figures.endToEndPerSecond,
      samples: figures.memory ?? [],
    });
    log(`charts drawn: ${charts.map((f) => path.relative(process.cwd(), f)).join(', ')}`);
    process.stdout.write(`${report}\n${profileFile ? `\n### Where the indexer's time went\n\n${summariseProfile(profileFile, 25, 'the indexer')}\n` : ''}`);
    if (options.stageRecords > 0) {
      const limit = Math.min(options.stageRecords, options.records);
      log(`timing the indexer's stages alone over the first ${limit} records (in this process, no deduplication)`);
      const stages = await measureStages(sampleFile, limit, path.join(runDir, 'stages'));
      process.stdout.write(
        `\n### The indexer's stages alone (first ${integer(limit)} records, one thread, no deduplication)\n\n` +
          stagesTable(stages, writeSeconds / Math.max(figures.records, 1), availableParallelism()) +
          '\n',
      );
    }
    log(`the daily load into the built store: ${path.relative(process.cwd(), dailyFile)}`);
    const daily = await loadWithIndexer(dailyFile, path.join(runDir, 'data'), path.join(runDir, 'daily-rejects.ndjson'));
    return { row: sqliteIndexerRow(figures), daily: { engine: 'SQLite', figures: daily } };
  } finally {
    rmSync(runDir, { recursive: true, force: true });
  }
}
