/**
 * npm run sample -- --count N --out file.ndjson.gz [--labels labels.ndjson(.gz)] [--seed S] [--now ISO] [--workers W]
 *
 * Writes a deterministic sample catalogue of N raw records (gzip when the name ends in .gz) and,
 * with --labels, the ground-truth property of each record. Prints a one-line JSON summary.
 */
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { DEFAULT_SEED } from './generate.js';
import { writeSample } from './write.js';

const USAGE = 'usage: npm run sample -- --count N --out file.ndjson[.gz] [--labels labels.ndjson[.gz]] [--seed S] [--now ISO-date] [--workers W]';

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

function parseInteger(name: string, value: string | undefined, fallback?: number): number {
  if (value === undefined) {
    if (fallback === undefined) fail(`--${name} is required`);
    return fallback;
  }
  const cleaned = value.replace(/[_\s]/g, '');
  if (!/^\d+$/.test(cleaned)) fail(`--${name} must be a non-negative integer, got "${value}"`);
  return Number(cleaned);
}

async function main(): Promise<void> {
  // biome-ignore lint/suspicious/noImplicitAnyLet: typed by the parseArgs result assigned below
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        count: { type: 'string' },
        out: { type: 'string' },
        labels: { type: 'string' },
        seed: { type: 'string' },
        now: { type: 'string' },
        workers: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    fail((error as Error).message);
  }
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const count = parseInteger('count', values.count);
  const seed = parseInteger('seed', values.seed, DEFAULT_SEED);
  const workers = values.workers === undefined ? undefined : parseInteger('workers', values.workers);
  if (!values.out) fail('--out is required');
  const now = values.now === undefined ? undefined : new Date(values.now);
  if (now && Number.isNaN(now.getTime())) fail(`--now must be an ISO date, got "${values.now}"`);

  const bar = process.stderr.isTTY
    ? new cliProgress.SingleBar(
        { stream: process.stderr, format: 'sample [{bar}] {percentage}% | {value}/{total} records | {eta}s left' },
        cliProgress.Presets.shades_classic,
      )
    : null;
  bar?.start(count, 0);
  const summary = await writeSample({ count, out: values.out, labels: values.labels, seed, now, workers, onProgress: (n) => bar?.update(n) });
  bar?.stop();
  console.log(JSON.stringify(summary));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
