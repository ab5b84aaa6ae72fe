/**
 * The engines side by side: the same scenarios (same requests, drawn from the same catalogue facts)
 * and the same raw records loaded by the indexer, one column group per engine, measured in the same
 * run on the same machine. Pure formatting: the figures come from api-bench.ts and indexer-bench.ts.
 */
import type { LoadFigures } from './catalogue.js';
import type { EsLoad } from './es-catalogue.js';
import type { Engine } from './options.js';
import { formatBytes, integer, markdownTable, ms, type ResultRow } from './report.js';

export const ENGINE_TITLE: Record<Engine, string> = { sqlite: 'SQLite', elasticsearch: 'Elasticsearch' };

/** A run's name in the tables: the engine, and its number of API processes when runs differ by it. */
export function runLabel(engine: Engine, workers: number, showWorkers: boolean): string {
  return showWorkers ? `${ENGINE_TITLE[engine]} ${workers === 1 ? '1 process' : `${workers} processes`}` : ENGINE_TITLE[engine];
}

export interface EngineRows {
  /** The run's column title (runLabel). */
  label: string;
  rows: (Pick<ResultRow, 'name' | 'title' | 'rps' | 'p50' | 'p99' | 'rawMs' | 'errors'> & Partial<Pick<ResultRow, 'cpuMsPerRequest'>>)[];
}

/** The API process's CPU per request on the second engine over the first's (Elasticsearch over SQLite), at most. */
export const CPU_RATIO_TARGET = 1.3;

/**
 * scenario | per engine: req/s, p50, p99, raw ms, the API's CPU ms per request | with two engines,
 * the second's req/s over the first's, and its CPU per request over the first's against
 * CPU_RATIO_TARGET. A scenario one engine did not run shows dashes there.
 */
export function sideBySideTable(runs: readonly EngineRows[]): string {
  const names: string[] = [];
  const titles = new Map<string, string>();
  for (const run of runs)
    for (const row of run.rows)
      if (!titles.has(row.name)) {
        names.push(row.name);
        titles.set(row.name, row.title);
      }
  const header = ['scenario'];
  for (const run of runs) {
    const t = run.label;
    header.push(`${t} req/s`, `${t} p50 ms`, `${t} p99 ms`, `${t} raw ms`, `${t} API CPU ms/req`);
  }
  const two = runs.length === 2;
  if (two) header.push(`${runs[1].label} / ${runs[0].label} req/s`, `${runs[1].label} / ${runs[0].label} API CPU (target <= ${CPU_RATIO_TARGET})`);
  const rows = names.map((name) => {
    const found = runs.map((run) => run.rows.find((r) => r.name === name));
    const cells = [`${name}: ${titles.get(name)}`];
    for (const row of found) {
      cells.push(
        row ? integer(row.rps) + (row.errors ? ` (${row.errors} errors)` : '') : '-',
        row ? ms(row.p50) : '-',
        row ? ms(row.p99) : '-',
        row ? ms(row.rawMs) : '-',
        row ? ms(row.cpuMsPerRequest) : '-',
      );
    }
    if (two) cells.push(found[0] && found[1] && found[0].rps > 0 ? (found[1].rps / found[0].rps).toFixed(2) : '-', cpuRatio(found[0], found[1]));
    return cells;
  });
  return markdownTable(header, rows);
}

function cpuRatio(first: EngineRows['rows'][number] | undefined, second: EngineRows['rows'][number] | undefined): string {
  const a = first?.cpuMsPerRequest;
  const b = second?.cpuMsPerRequest;
  if (!a || !b) return '-';
  const ratio = b / a;
  return `${ratio.toFixed(2)} ${ratio <= CPU_RATIO_TARGET ? 'met' : 'MISSED'}`;
}

/** One engine's load of the raw records by the indexer CLI. */
export interface IndexerRow {
  engine: Engine;
  records: number;
  written: number;
  rejected: number;
  /** The indexer's own figure (reading to the last write), and over the wall time of the process. */
  recordsPerSecond: number;
  endToEndPerSecond: number;
  wallSeconds: number;
  /** Peak RSS of the indexer process (VmHWM), MiB. */
  peakRssMiB: number | null;
  storeBytes: number;
  /** Where the listings went: the file, or the index's shards, replicas and the node's heap. */
  layout: string;
  loadedAt: string;
}

export function sqliteIndexerRow(figures: LoadFigures, storeBytes = figures.storeBytes): IndexerRow {
  return { engine: 'sqlite', ...pick(figures), storeBytes, layout: 'one file (listings.sqlite), first build' };
}

export function esIndexerRow(load: EsLoad): IndexerRow {
  const { index } = load;
  return {
    engine: 'elasticsearch',
    ...pick(load),
    storeBytes: index.storeBytes,
    layout: `${index.primaryShards} primary shards, ${index.replicas} replicas, ${index.nodes} node, heap ${formatBytes(index.heapMaxBytes)}`,
  };
}

function pick(f: LoadFigures): Omit<IndexerRow, 'engine' | 'storeBytes' | 'layout'> {
  return {
    records: f.records,
    written: f.written,
    rejected: f.rejected,
    recordsPerSecond: f.recordsPerSecond,
    endToEndPerSecond: f.endToEndPerSecond,
    wallSeconds: f.wallSeconds,
    peakRssMiB: f.peakRssMiB,
    loadedAt: f.builtAt,
  };
}

/** The first columns of every table of a load: what went in, what was written, how fast. */
export const LOAD_COLUMNS = ['records', 'written', 'rejected', 'indexer records/s', 'end-to-end records/s', 'wall s'];

export function indexerSideBySide(rows: readonly IndexerRow[]): string {
  return markdownTable(
    ['engine', ...LOAD_COLUMNS, 'indexer peak RSS', 'store on disk', 'layout', 'loaded at'],
    rows.map((r) => [
      ENGINE_TITLE[r.engine],
      integer(r.records),
      integer(r.written),
      integer(r.rejected),
      integer(r.recordsPerSecond),
      integer(r.endToEndPerSecond),
      r.wallSeconds.toFixed(1),
      r.peakRssMiB === null ? '-' : `${r.peakRssMiB.toFixed(0)} MiB`,
      formatBytes(r.storeBytes),
      r.layout,
      `${r.loadedAt.slice(0, 16)}Z`,
    ]),
  );
}
