/**
 * The benchmark's main figures as pictures, drawn with Vega-Lite (rendered to SVG by Vega, without
 * a browser) into docs/charts/ beside docs/benchmarks.md, which shows them:
 * - api-latency.svg: p50 and p99 by scenario, one colour per listings engine, each latency target marked;
 * - indexer-load.svg: the listings the indexer has written and its memory along a load.
 * The figures they are drawn from are kept in charts/results.json: a complete API run replaces the
 * figures of its engine, an indexer run the indexer's, and every chart is drawn again.
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import type { MemorySample } from './memory-curve.js';
import { SCENARIOS } from './scenarios.js';

export const CHART_DIR = fileURLToPath(new URL('../../docs/charts/', import.meta.url));
const RESULTS_FILE = `${CHART_DIR}results.json`;

export interface ApiFigure {
  scenario: string;
  p50: number;
  p99: number;
  rps: number;
}
/** One complete API run: every scenario against one listings engine. */
export interface ApiRun {
  engine: string;
  label: string;
  figures: ApiFigure[];
}
export interface IndexerRun {
  label: string;
  records: number;
  recordsPerSecond: number;
  samples: MemorySample[];
}
export interface BenchResults {
  api: ApiRun[];
  indexer: IndexerRun | null;
}

export function readResults(): BenchResults {
  if (!existsSync(RESULTS_FILE)) return { api: [], indexer: null };
  return JSON.parse(readFileSync(RESULTS_FILE, 'utf8')) as BenchResults;
}

/** Keeps a complete API run (replacing the last one of its engine) and draws the charts again. */
export async function recordApiRun(run: ApiRun): Promise<string[]> {
  const results = readResults();
  results.api = [...results.api.filter((r) => r.engine !== run.engine), run];
  return saveAndDraw(results);
}

/** Keeps an indexer run and draws the charts again. */
export async function recordIndexerRun(run: IndexerRun): Promise<string[]> {
  return saveAndDraw({ ...readResults(), indexer: run });
}

async function saveAndDraw(results: BenchResults): Promise<string[]> {
  mkdirSync(CHART_DIR, { recursive: true });
  writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, 1)}\n`);
  return drawCharts(results);
}

/** Writes every chart the results allow; returns the files written. */
export async function drawCharts(results: BenchResults): Promise<string[]> {
  const written: string[] = [];
  const charts: [string, TopLevelSpec | null][] = [
    ['api-latency.svg', apiLatencySpec(results.api)],
    ['indexer-load.svg', indexerSpec(results.indexer)],
  ];
  for (const [name, spec] of charts) {
    if (!spec) continue;
    writeFileSync(`${CHART_DIR}${name}`, await renderSvg(spec));
    written.push(`${CHART_DIR}${name}`);
  }
  return written;
}

export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** The scenario's latency ceiling (`p50 <= x` or `p99 <= x` in scenarios.ts), or null without one. */
function latencyTarget(scenario: string, metric: 'p50' | 'p99'): number | null {
  const target = SCENARIOS.find((s) => s.name === scenario)?.targets.find((t) => t.metric === metric && t.op === '<=');
  return target?.value ?? null;
}

export function apiLatencySpec(runs: readonly ApiRun[]): TopLevelSpec | null {
  const values = runs.flatMap((run) =>
    run.figures.map((f) => ({
      scenario: f.scenario,
      engine: run.engine,
      p50: f.p50,
      p99: f.p99,
      'p50 target': latencyTarget(f.scenario, 'p50'),
      'p99 target': latencyTarget(f.scenario, 'p99'),
    })),
  );
  if (values.length === 0) return null;
  const y = { field: 'scenario', type: 'nominal', sort: null, title: null } as const;
  const x = { type: 'quantitative', scale: { type: 'log' }, title: 'milliseconds (log scale): dot p50, line to p99' } as const;
  const engine = { field: 'engine', type: 'nominal', title: 'listings engine' } as const;
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title: {
      text: 'API latency by scenario and engine (50 connections)',
      subtitle: [...runs.map((r) => `${r.engine}: ${r.label}`), 'black triangle: p50 target; hollow triangle: p99 target'],
    },
    data: { values },
    width: 520,
    height: { step: 16 },
    encoding: { y, yOffset: { field: 'engine' }, color: engine },
    layer: [
      { mark: { type: 'rule', strokeWidth: 2 }, encoding: { x: { ...x, field: 'p50' }, x2: { field: 'p99' } } },
      { mark: { type: 'circle', size: 60, opacity: 1 }, encoding: { x: { ...x, field: 'p50' }, tooltip: [{ field: 'p50' }, { field: 'p99' }] } },
      { mark: { type: 'tick', thickness: 2, size: 10 }, encoding: { x: { ...x, field: 'p99' } } },
      // Rows without a target have a null there, which Vega-Lite leaves out of a quantitative mark.
      { mark: { type: 'point', shape: 'triangle-down', filled: true, color: 'black', size: 50 }, encoding: { x: { ...x, field: 'p50 target' } } },
      { mark: { type: 'point', shape: 'triangle-down', filled: false, color: 'black', size: 50 }, encoding: { x: { ...x, field: 'p99 target' } } },
    ],
  } as TopLevelSpec;
}

export function indexerSpec(run: IndexerRun | null): TopLevelSpec | null {
  const samples = (run?.samples ?? []).filter((s) => s.listings !== null && s.rssMiB !== null);
  if (!run || samples.length < 2) return null;
  // Listings as committed (in batches, so the count moves in steps): the slope is the throughput.
  const values = samples.map((s) => ({ seconds: s.seconds, listings: s.listings, 'RSS now': s.rssMiB, 'peak RSS': s.peakMiB }));
  const x = { field: 'seconds', type: 'quantitative', title: 'seconds since the load started' } as const;
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title: {
      text: `Indexer along a load of ${run.records.toLocaleString('en')} records`,
      subtitle: `${run.label}; ${Math.round(run.recordsPerSecond).toLocaleString('en')} records/s overall`,
    },
    data: { values },
    vconcat: [
      {
        width: 520,
        height: 160,
        mark: { type: 'line', point: true, color: '#444' },
        encoding: { x, y: { field: 'listings', type: 'quantitative', title: 'listings written (committed)' } },
      },
      {
        width: 520,
        height: 160,
        transform: [{ fold: ['RSS now', 'peak RSS'], as: ['memory', 'MiB'] }],
        mark: { type: 'line', point: true },
        encoding: { x, y: { field: 'MiB', type: 'quantitative', title: 'MiB' }, color: { field: 'memory', type: 'nominal', title: 'indexer memory' } },
      },
    ],
  } as TopLevelSpec;
}
