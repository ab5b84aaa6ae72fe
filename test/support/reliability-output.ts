/**
 * The reliability tests' own account of what they tried (cases, kills, requests) and what came out,
 * one JSON file per test under reliability-output/ (git-ignored); `npm run reliability-report`
 * renders docs/reliability.md from them, so the document states what the last run measured.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const RELIABILITY_OUTPUT = path.resolve('reliability-output');

export interface ReliabilityEntry {
  /** Fault or bad input tried, as the document names it. */
  title: string;
  /** Where it is tested: file and test name. */
  test: string;
  /** How many cases (requests, kills, files...) and of what. */
  cases: number;
  unit: string;
  /** What came out, one line. */
  result: string;
  /** Measured details worth keeping (counts by kind...). */
  details?: Record<string, unknown>;
  /** The listing engine the test ran on (default: SQLite, where the app of the tests runs). */
  backend?: string;
}

export function recordReliability(name: string, entry: ReliabilityEntry): void {
  mkdirSync(RELIABILITY_OUTPUT, { recursive: true });
  writeFileSync(path.join(RELIABILITY_OUTPUT, `${name}.json`), `${JSON.stringify({ backend: 'sqlite', ...entry, at: new Date().toISOString() }, null, 2)}\n`);
}
