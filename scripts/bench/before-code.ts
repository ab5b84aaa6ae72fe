/**
 * The code before a change as a baseline (`--before DIR`): DIR is another checkout of this repository
 * (`git worktree add ../before <commit>`, with its node_modules). Its own indexer loads the same raw
 * records into its own store (its schema or mapping may differ from this checkout's), its own
 * `npm start` entry serves them, and each scenario's requests go to both servers alternately
 * (alternate.ts), so that the figures of the two codes come from the same run on the same machine.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { INDEXER_ENV, INDEXER_NODE_FLAGS } from '../../indexer/heap.js';
import type { Catalogue } from './catalogue.js';
import type { SideFigures } from './alternate.js';
import { BENCH_HISTORY_DAYS } from './bench-key.js';
import { childEnv, runTs } from './child.js';
import { countOf, deleteAlias, type EsCatalogue } from './es-catalogue.js';
import { loadConfig } from '../../src/config/config.js';
import { integer, log, markdownTable, ms } from './report.js';
import { UsageError } from './options.js';

export interface BeforeCode {
  dir: string;
  /** The checkout's commit, abbreviated. */
  commit: string;
  /** The server's entry point, as the checkout's `npm start` names it. */
  entry: string;
  /** The checkout's own SQLite catalogue of the same records. */
  dataDir: string;
  /** Its own alias on the same node, when Elasticsearch is benchmarked. */
  esAlias: string | null;
}

/** The checkout at `dir`: its commit and the entry point of its `npm start` script. */
export function openCheckout(dir: string): Pick<BeforeCode, 'dir' | 'commit' | 'entry'> {
  const absolute = path.resolve(dir);
  const manifest = path.join(absolute, 'package.json');
  if (!existsSync(manifest)) throw new UsageError(`--before ${dir}: no package.json there (a checkout of this repository is expected)`);
  if (!existsSync(path.join(absolute, 'node_modules')))
    throw new UsageError(`--before ${dir}: no node_modules there (run npm ci in it, or link this checkout's)`);
  const start = (JSON.parse(readFileSync(manifest, 'utf8')) as { scripts?: Record<string, string> }).scripts?.start ?? '';
  const entry = /(\S+\.ts)\s*$/.exec(start)?.[1];
  if (!entry) throw new UsageError(`--before ${dir}: its npm start script names no .ts entry ("${start}")`);
  return { dir: absolute, commit: commitOf(absolute), entry };
}

/** The abbreviated commit a checkout is at. */
export function commitOf(dir: string): string {
  return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim();
}

/** Loads the sample with the checkout's own indexer where its catalogue is missing or incomplete. */
export async function prepareBefore(dir: string, catalogue: Catalogue, es: EsCatalogue | null): Promise<BeforeCode> {
  const checkout = openCheckout(dir);
  const dataDir = path.join(checkout.dir, '.bench-cache', String(catalogue.listings), 'data');
  if (!existsSync(path.join(dataDir, 'listings.sqlite'))) {
    log(`the code before (${checkout.commit}): loading the sample with its indexer into ${dataDir}`);
    mkdirSync(dataDir, { recursive: true });
    await loadWith(checkout.dir, catalogue.sampleFile, { DATA_DIR: dataDir });
  }
  let esAlias: string | null = null;
  if (es) {
    esAlias = `${es.alias}-before-${checkout.commit}`;
    if ((await countOf(es.url, esAlias)) !== es.build.index.documents) {
      log(`the code before (${checkout.commit}): loading the sample with its indexer behind ${esAlias}`);
      await deleteAlias(es.url, esAlias);
      const runDir = path.join(catalogue.dir, 'es-before-run');
      rmSync(runDir, { recursive: true, force: true });
      await loadWith(checkout.dir, catalogue.sampleFile, { ES_URL: es.url, ES_INDEX_ALIAS: esAlias, DATA_DIR: path.join(runDir, 'data') });
    }
  }
  return { ...checkout, dataDir, esAlias };
}

async function loadWith(dir: string, sampleFile: string, env: Record<string, string>): Promise<void> {
  const run = await runTs('indexer/cli.ts', ['load', sampleFile], childEnv({ ...INDEXER_ENV, ...env }), { cwd: dir, nodeFlags: INDEXER_NODE_FLAGS });
  if (run.code !== 0) throw new Error(`the code before: its indexer exited with ${run.code}:\n${run.stderr.slice(-2000)}`);
}

/** A fresh bench account in the checkout's access file, made by its own admin command; its key. */
export async function beforeKey(before: BeforeCode): Promise<string> {
  const accessFile = loadConfig({ DATA_DIR: before.dataDir }).accessFile;
  for (const suffix of ['', '-wal', '-shm']) rmSync(accessFile + suffix, { force: true });
  const args = ['keys', 'create', '--account', 'bench', '--offer', 'sur_mesure', '--history-days', String(BENCH_HISTORY_DAYS), '--name', 'bench'];
  const run = await runTs('src/admin/cli.ts', args, childEnv({ DATA_DIR: before.dataDir }), { cwd: before.dir });
  const line = run.stdout.trim().split('\n').at(-1) ?? '';
  if (run.code !== 0 || !line.startsWith('{')) throw new Error(`the code before: keys create exited with ${run.code}:\n${run.stderr.slice(-1000)}`);
  return (JSON.parse(line) as { key: string }).key;
}

/** One scenario measured on both codes (alternate.ts): this checkout's figures and the one before's. */
export interface BeforeRow {
  name: string;
  after: SideFigures;
  before: SideFigures;
}

/** scenario | req/s before, after, change | CPU ms/request before, after, change | errors. */
export function beforeTable(rows: readonly BeforeRow[]): string {
  const change = (before: number | null, after: number | null) =>
    before && after !== null ? `${after >= before ? '+' : ''}${((100 * (after - before)) / before).toFixed(0)} %` : '-';
  const cpu = (v: number | null) => (v === null ? '-' : ms(v));
  return markdownTable(
    ['scenario', 'req/s before', 'after', 'change', 'CPU ms/req before', 'after', 'change', 'errors before', 'after'],
    rows.map((r) => [
      r.name,
      integer(r.before.rps),
      integer(r.after.rps),
      change(r.before.rps, r.after.rps),
      cpu(r.before.cpuMsPerRequest),
      cpu(r.after.cpuMsPerRequest),
      change(r.before.cpuMsPerRequest, r.after.cpuMsPerRequest),
      String(r.before.errors),
      String(r.after.errors),
    ]),
  );
}
