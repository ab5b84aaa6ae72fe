/**
 * Printing: progress lines on stderr, and the report (Markdown tables, readable on a terminal and
 * pasted as is into docs/benchmarks.md) on stdout.
 */
import type { Metric, Target } from './scenarios.js';

export function log(message: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  return `${(bytes / 1024).toFixed(0)} KiB`;
}

export function ms(value: number | null | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '-';
  if (value >= 100) return value.toFixed(0);
  if (value >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

export function integer(value: number | null | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '-';
  return Math.round(value).toLocaleString('en-US').replace(/,/g, ' ');
}

/** One line of the main table. */
export interface ResultRow {
  name: string;
  title: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  rawMs: number | null;
  /** p50 with one connection (no queueing). */
  singleP50: number | null;
  /** Server CPU (all its processes) per request under the C-connection load: what limits req/s. */
  cpuMsPerRequest?: number | null;
  /** CPU of the listings engine's own processes (a local Elasticsearch node) per request under the same load. */
  engineCpuMsPerRequest?: number | null;
  /** The bare node:http server sending the same bytes (baseline.ts): its one-connection p50 and CPU per request. */
  bareP50?: number | null;
  /** The bare server's p50 under the same load: below it no API code can bring the scenario's p50 on this machine. */
  bareLoadP50?: number | null;
  bareCpuMsPerRequest?: number | null;
  /** Elasticsearch: the node answering the API's own requests directly, in API requests' worth per second (es-direct.ts). */
  directRps?: number | null;
  targets: Target[];
  /** Values of the metrics the targets read (rps, p50, p99, ratio, ...). */
  metrics: Partial<Record<Metric, number>>;
  note?: string;
  /** The requests of the scenario. */
  paths?: string[];
  /** Seconds of its 50-connection run: longer for a slow scenario (at least 3 rounds of the queue). */
  loadSeconds?: number;
}

function ratio(a: number | null, b: number | null): string {
  if (a === null || b === null || !(b > 0) || Number.isNaN(a)) return '-';
  const r = a / b;
  return r >= 100 ? r.toFixed(0) : r.toFixed(1);
}

const METRIC_LABEL: Record<Metric, string> = {
  rps: 'req/s',
  p50: 'p50 ms',
  p99: 'p99 ms',
  ratio: '1c/raw',
  listingsPerSecond: 'listings/s',
  vsCursorPage1: 'p50 vs page 1',
  vsBare1c: '1c/bare 1c',
  cpuVsBare: 'CPU/bare CPU',
  cpuVsRaw: 'CPU/raw',
  logCost: 'req/s lost to logging %',
  vsDirect: 'API/ES direct req/s',
};

export function verdict(row: ResultRow): { text: string; missed: string[] } {
  if (row.targets.length === 0) return { text: 'reported', missed: [] };
  const missed: string[] = [];
  const unknown: string[] = [];
  for (const target of row.targets) {
    const value = row.metrics[target.metric];
    if (value === undefined || Number.isNaN(value)) {
      unknown.push(METRIC_LABEL[target.metric]);
      continue;
    }
    const ok = target.op === '>=' ? value >= target.value : value <= target.value;
    if (!ok) missed.push(`${METRIC_LABEL[target.metric]} ${formatMetric(target.metric, value)} (target ${target.op} ${target.value})`);
  }
  if (missed.length) return { text: `MISSED: ${missed.join('; ')}`, missed };
  if (unknown.length) return { text: `n/a (${unknown.join(', ')} not measured)`, missed };
  return { text: 'met', missed };
}

function formatMetric(metric: Metric, value: number): string {
  return metric === 'rps' || metric === 'listingsPerSecond' ? integer(value) : ms(value);
}

export function targetText(targets: Target[]): string {
  return targets.map((t) => `${METRIC_LABEL[t.metric]} ${t.op} ${t.value}`).join(', ') || '(reported)';
}

export function markdownTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

/** The main table; an `ES CPU ms/req` column after the server's when the engine's CPU was measured. */
export function resultsTable(rows: ResultRow[]): string {
  const engineCpu = rows.some((r) => r.engineCpuMsPerRequest !== undefined && r.engineCpuMsPerRequest !== null);
  const direct = rows.some((r) => r.directRps !== undefined && r.directRps !== null);
  return markdownTable(
    [
      'scenario',
      'req/s',
      ...(direct ? ['ES direct req/s', 'API/direct'] : []),
      'p50 ms',
      'p99 ms',
      'bare p50',
      'errors',
      'raw ms',
      'p50/raw',
      'p50 1c',
      '1c/raw',
      'bare 1c',
      '1c/bare',
      'CPU ms/req',
      ...(engineCpu ? ['ES CPU ms/req'] : []),
      'bare CPU',
      'CPU/bare',
      'target',
      'result',
    ],
    rows.map((r) => [
      `${r.name}: ${r.title}`,
      integer(r.rps),
      ...(direct ? [integer(r.directRps), r.directRps ? (r.rps / r.directRps).toFixed(2) : '-'] : []),
      ms(r.p50),
      ms(r.p99),
      ms(r.bareLoadP50),
      String(r.errors),
      ms(r.rawMs),
      ratio(r.p50, r.rawMs),
      ms(r.singleP50),
      ratio(r.singleP50, r.rawMs),
      ms(r.bareP50),
      ratio(r.singleP50, r.bareP50 ?? null),
      ms(r.cpuMsPerRequest),
      ...(engineCpu ? [ms(r.engineCpuMsPerRequest)] : []),
      ms(r.bareCpuMsPerRequest),
      ratio(r.cpuMsPerRequest ?? null, r.bareCpuMsPerRequest ?? null),
      targetText(r.targets),
      verdict(r).text + (r.note ? ` ${r.note}` : ''),
    ]),
  );
}
