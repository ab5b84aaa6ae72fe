/**
 * A fixed amount of work timed on the machine of a run and printed beside its figures. Machines of
 * the same size differ by up to twice on the same code, so two reports are comparable only with the
 * speed of their machines beside them.
 */
import { execFileSync } from 'node:child_process';
import Database from 'better-sqlite3';
import { median } from './stats.js';

export interface Calibration {
  /** Median ms of a fixed integer loop (one core, no memory traffic). */
  jsMs: number;
  /** Median ms of a fixed SQLite workload in memory: inserts, an index build, point lookups by that index. */
  sqliteMs: number;
}

export interface CalibrationSize {
  loopSteps: number;
  rows: number;
  runs: number;
}

export const CALIBRATION_SIZE: CalibrationSize = { loopSteps: 100_000_000, rows: 100_000, runs: 3 };

export function calibrate(size: CalibrationSize = CALIBRATION_SIZE): Calibration {
  const js: number[] = [];
  const sqlite: number[] = [];
  for (let run = 0; run < size.runs; run++) {
    js.push(timeSync(() => integerLoop(size.loopSteps)));
    sqlite.push(timeSync(() => sqliteWork(size.rows)));
  }
  return { jsMs: median(js), sqliteMs: median(sqlite) };
}

/** Returns its result so that the loop cannot be optimised away. */
export function integerLoop(steps: number): number {
  let x = 0;
  for (let i = 0; i < steps; i++) x = (x * 31 + i) | 0;
  return x;
}

/** Returns how many lookups found their row (all of them). */
export function sqliteWork(rows: number): number {
  const db = new Database(':memory:');
  try {
    db.exec('CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT NOT NULL)');
    const insert = db.prepare('INSERT INTO t (k, v) VALUES (?, ?)');
    db.transaction(() => {
      for (let k = 0; k < rows; k++) insert.run(k, `value-${(k * 7919) % rows}`);
    })();
    db.exec('CREATE INDEX ix_v ON t(v)');
    const find = db.prepare('SELECT k FROM t WHERE v = ?').pluck();
    let found = 0;
    for (let k = 0; k < rows; k++) if (find.get(`value-${k}`) !== undefined) found++;
    return found;
  } finally {
    db.close();
  }
}

function timeSync(work: () => unknown): number {
  const started = process.hrtime.bigint();
  work();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/**
 * Bytes of `file` in the page cache when asked (util-linux `fincore`), null where that cannot be read.
 * Some machines page cold file pages out on their own (DAMON `pageout`, see docs/benchmarks-history.md): a store
 * read from the disk instead of memory is a slower machine, not slower code.
 */
export function residentBytes(file: string): number | null {
  try {
    const bytes = Number(
      execFileSync('fincore', ['--bytes', '--noheadings', '--output', 'RES', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim(),
    );
    return Number.isFinite(bytes) ? bytes : null;
  } catch {
    return null;
  }
}
