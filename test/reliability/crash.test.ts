/**
 * Crash safety of the indexer (issue #30): SIGKILL a load at fixed and random points of a first
 * build (its batches, the grouping at its end, the final index build) and of a later load, run the
 * same load again, and the store must hold exactly what a load that was never killed leaves.
 *
 * It runs on each engine: SQLite in a temporary DATA_DIR, and Elasticsearch when ES_URL is set
 * (each trial in an alias of its own). The comparison goes through the ListingStore port
 * (test/support/store-digest.ts), so it is the same on both.
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateSample } from '../../indexer/sample/generate.js';
import { INDEXER_ENV, INDEXER_NODE_FLAGS } from '../../indexer/heap.js';
import { runLoad } from '../../indexer/load.js';
import { DedupGrouping } from '../../indexer/dedup/stage.js';
import { loadSites } from '../../src/core/model/sites.js';
import { loadCommunes } from '../../src/core/refdata/communes.js';
import { loadConfig } from '../../src/config/config.js';
import { openListingStore } from '../../src/open-listing-store.js';
import { storeDigest, type StoreDigest } from '../support/store-digest.js';
import { unsyncedBuildMarker } from '../../src/adapters/sqlite-listings/write/unsynced-build.js';
import { recordReliability } from '../support/reliability-output.js';
import { deleteAliasIndices } from '../support/elasticsearch.js';
import { describeEngines } from '../support/engines.js';

const CHILD = path.resolve('test/reliability/crash-child.ts');
const FIRST_RECORDS = 3000;
/** Rows per transaction of the killed first builds: several commits before the end, as a big file has. */
const BULK_COMMIT_ROWS = 700;

/** A deterministic PRNG (mulberry32): the kill points of a run can be replayed from its seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Where a load is killed: at the n-th write of a kind (crash-child.ts), or a random delay after it starts writing or building. */
type Kill = { kind: 'point'; crashAt: string } | { kind: 'after'; phase: 'write' | 'build'; delayMs: number };

const describeKill = (kill: Kill): string => (kill.kind === 'point' ? kill.crashAt : `${kill.phase} +${kill.delayMs} ms`);

describeEngines('indexer crash safety: SIGKILL at any point, rerun, same store as a clean load', function (engine) {
  const ES = engine === 'elasticsearch';
  this.timeout(300_000);
  const root = mkdtempSync(path.join(tmpdir(), 'crash-'));
  const first = path.join(root, 'first.ndjson.gz');
  const later = path.join(root, 'later.ndjson');
  const seed = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);
  const random = prng(seed);
  let targets = 0;
  const envOf = (dataDir: string, alias: string) => ({
    ...process.env,
    ...INDEXER_ENV,
    DATA_DIR: dataDir,
    REDIS_URL: '',
    ES_URL: ES ? process.env.ES_URL : '',
    ES_INDEX_ALIAS: alias,
    // A killed load's lock is taken over after one lease: short here, or every rerun waits a minute.
    ES_WRITER_LEASE_SECONDS: '1',
    LOG_LEVEL: 'silent',
  });
  const configOf = (dataDir: string, alias: string) => loadConfig(envOf(dataDir, alias));
  const aliases: string[] = [];
  const newTarget = () => {
    targets++;
    const dataDir = path.join(root, `t${targets}`);
    mkdirSync(dataDir, { recursive: true });
    const alias = `crash-${process.pid}-${targets}`;
    aliases.push(alias);
    return { dataDir, alias };
  };

  /**
   * A load in this process, as `npm run indexer -- load` runs it but for the parse worker (parsing in
   * this thread gives the same lines and spares starting a thread per rerun).
   */
  const loadHere = async (target: { dataDir: string; alias: string }, files: string[]) => {
    const store = await openListingStore(configOf(target.dataDir, target.alias), { cacheMiB: 16 });
    try {
      const sites = loadSites();
      return await runLoad({ files, store, sites, communes: loadCommunes(), grouping: new DedupGrouping({ sites }) });
    } finally {
      await store.close();
    }
  };
  const digestOf = async (target: { dataDir: string; alias: string }): Promise<StoreDigest & { groupingPending: boolean }> => {
    const store = await openListingStore(configOf(target.dataDir, target.alias));
    try {
      return { ...(await storeDigest(store)), groupingPending: await store.groupingPending() };
    } finally {
      await store.close();
    }
  };

  /** The load in a child process, killed as `kill` says; resolves with how it ended and when its phases began. */
  const loadInChild = (target: { dataDir: string; alias: string }, files: string[], kill: Kill | null) =>
    new Promise<{ signal: NodeJS.Signals | null; code: number | null; ms: number; at: Record<string, number> }>((resolve) => {
      const started = Date.now();
      const env: NodeJS.ProcessEnv = { ...envOf(target.dataDir, target.alias), BULK_COMMIT_ROWS: String(BULK_COMMIT_ROWS) };
      if (kill?.kind === 'point') env.CRASH_AT = kill.crashAt;
      const child = spawn(process.execPath, [...INDEXER_NODE_FLAGS, '--import', 'tsx', CHILD, ...files], { env, stdio: ['ignore', 'ignore', 'pipe'] });
      const at: Record<string, number> = {};
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        for (const phase of ['write', 'build'] as const) {
          if (at[phase] !== undefined || !stderr.includes(`phase ${phase}`)) continue;
          at[phase] = Date.now() - started;
          if (kill?.kind === 'after' && kill.phase === phase) setTimeout(() => child.kill('SIGKILL'), kill.delayMs);
        }
      });
      child.on('exit', (code, signal) => {
        if (code !== 0 && code !== null) process.stderr.write(stderr);
        resolve({ signal, code, ms: Date.now() - started, at });
      });
    });

  let cleanFirst: StoreDigest;
  let cleanBoth: StoreDigest;
  let firstBase: { dataDir: string; alias: string };
  let fullRun: { ms: number; at: Record<string, number> };
  const results: { phase: string; kill: string; killed: number; equal: boolean }[] = [];

  before(async () => {
    const records = [...generateSample({ count: FIRST_RECORDS, seed: 11 })].map((r) => r.record);
    writeFileSync(first, gzipSync(`${records.map((r) => JSON.stringify(r)).join('\n')}\n`));
    // The later load: new listings, price changes and withdrawals of listings of the first.
    const fresh = [...generateSample({ count: 600, seed: 12 })].map((r) => ({ ...r.record, reference: `L${String(r.record.reference)}` }));
    const changed = records
      .filter((_, i) => i % 3 === 0)
      .map((r, i) => ({
        ...r,
        collected_at: '2026-11-21T10:00:00Z',
        ...(i % 4 === 0 ? { status: 'vendue' } : { price: Math.round(Number(String(r.price ?? '100000').replace(/\D/g, '') || 100000) * 0.93) }),
      }));
    writeFileSync(later, `${[...changed, ...fresh].map((r) => JSON.stringify(r)).join('\n')}\n`);
    firstBase = newTarget();
    await loadHere(firstBase, [first]);
    cleanFirst = await digestOf(firstBase);
    const both = newTarget();
    if (ES) await loadHere(both, [first]);
    else cpSync(firstBase.dataDir, both.dataDir, { recursive: true });
    await loadHere(both, [later]);
    cleanBoth = await digestOf(both);
  });

  after(async () => {
    if (ES) {
      const { createElasticsearchClient } = await import('../../src/adapters/elasticsearch/client.js');
      const client = createElasticsearchClient(configOf(root, 'unused').elasticsearch!);
      try {
        // By name: clusters refuse wildcard deletes by default.
        for (const alias of aliases) await deleteAliasIndices(client, alias);
      } finally {
        await client.close();
      }
    }
    rmSync(root, { recursive: true, force: true });
  });

  it('the reference stores are grouped, searchable and mapped, and the CLI path gives the same store', async () => {
    expect(cleanFirst.listings).to.equal(FIRST_RECORDS);
    expect(cleanFirst.grouped).to.be.greaterThan(FIRST_RECORDS / 10);
    expect(Object.values(cleanFirst.fullText).every((n) => n > 0)).to.equal(true);
    expect(cleanFirst.mapTotal).to.be.greaterThan(0);
    expect(cleanBoth.rows).to.not.equal(cleanFirst.rows);
    const target = newTarget();
    const run = await loadInChild(target, [first], null);
    expect(run.code).to.equal(0);
    fullRun = run;
    expect(await digestOf(target)).to.deep.equal({ ...cleanFirst, groupingPending: false });
  });

  /**
   * Kills `target`'s load of `files` at `kills[0]`, its rerun at `kills[1]`..., then runs it to its
   * end; the store must then equal `clean`.
   */
  const trial = async (phase: string, target: { dataDir: string; alias: string }, files: string[], kills: Kill[], clean: StoreDigest) => {
    const done: string[] = [];
    for (const kill of kills) if ((await loadInChild(target, files, kill)).signal === 'SIGKILL') done.push(describeKill(kill));
    await loadHere(target, files);
    const digest = await digestOf(target);
    results.push({ phase, kill: kills.map(describeKill).join(', then '), killed: done.length, equal: digest.rows === clean.rows && !digest.groupingPending });
    expect(digest, `seed ${seed}, killed at ${done.join(', then ')}`).to.deep.equal({ ...clean, groupingPending: false });
  };
  /** A random delay within a phase of the clean run (writing: until the build; building: until the end). */
  const within = (phase: 'write' | 'build'): Kill => {
    const from = fullRun.at[phase] ?? 0;
    const until = phase === 'write' ? (fullRun.at.build ?? fullRun.ms) : fullRun.ms;
    return { kind: 'after', phase, delayMs: Math.floor(random() * Math.max(until - from, 20)) };
  };
  const point = (crashAt: string): Kill => ({ kind: 'point', crashAt });

  it('a first build killed in its batches, its grouping, its final build or at random times, and its reruns killed too', async function () {
    // On Elasticsearch each kill lands in the writes at the end of a build kept aside, after its records
    // are grouped, and each rerun builds again from the start: eleven chains take longer than the default.
    if (ES) this.timeout(900_000);
    // A rerun writes each batch (upsertMany, empty when its records are already stored) and, when
    // the grouping still has work, group pages: kills at those points land whatever the timing.
    // Elasticsearch keeps a first build aside and writes it once at its end (indexer/first-build/):
    // its pages of 1 000 listings are its only writes (writePage, counted as upsertMany by
    // crash-child.ts), and it writes no group pages.
    const group = (n: number, when: 'before' | 'after') => point(ES ? `upsertMany:${n}:${when}` : `upsertGroupFields:${n}:${when}`);
    const chains: Kill[][] = [
      [point('upsertMany:1:after'), group(1, 'after')],
      [point('upsertMany:2:after'), within('write')],
      [point('upsertMany:3:before'), group(1, 'before')],
      [point('upsertMany:3:after'), point('upsertMany:2:after')],
      [group(1, 'before'), group(2, 'after')],
      [group(1, 'after'), within('write')],
      [within('build'), point('upsertMany:1:before')],
      [within('write'), point('upsertMany:3:before')],
    ];
    if (ES) chains.push(...[1, 2, 3].map((n) => [point(`upsertMany:${n}:after`), point(`upsertMany:${(n % 3) + 1}:before`)]));
    for (const kills of chains) await trial('first build', newTarget(), [first], kills, cleanFirst);
  });

  it('a later load killed in its batches or at random times, and its reruns killed too', async () => {
    const chains: Kill[][] = [
      [point('upsertMany:1:before')],
      [point('upsertMany:1:after'), point('upsertMany:1:after')],
      [point('upsertMany:1:after'), point('upsertMany:2:after')],
      [point('upsertMany:2:before')],
      [point('upsertMany:2:after'), within('write')],
      [within('write'), point('upsertMany:1:after')],
    ];
    for (const kills of chains) {
      const target = newTarget();
      if (ES) await loadHere(target, [first]);
      else cpSync(firstBase.dataDir, target.dataDir, { recursive: true });
      await trial('later load', target, [later], kills, cleanBoth);
    }
  });

  // SQLite's first build writes without syncing under a marker naming its process; Elasticsearch has none.
  if (!ES)
    it('a killed build whose marker names a pid another process has since: the rerun finishes the build', async function () {
      const target = newTarget();
      const run = await loadInChild(target, [first], { kind: 'point', crashAt: 'upsertMany:2:after' });
      expect(run.signal).to.equal('SIGKILL');
      const marker = unsyncedBuildMarker(path.join(target.dataDir, 'listings.sqlite'));
      const written = JSON.parse(readFileSync(marker, 'utf8')) as { pid: number; pid_start?: number };
      expect(written.pid_start, 'the marker says when its process started').to.be.a('number');
      // Another live process given that pid since: the marker names it, with the killed process's start time.
      const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
      try {
        writeFileSync(marker, JSON.stringify({ ...written, pid: other.pid }));
        await loadHere(target, [first]);
      } finally {
        other.kill('SIGKILL');
      }
      expect(existsSync(marker)).to.equal(false);
      expect(await digestOf(target)).to.deep.equal({ ...cleanFirst, groupingPending: false });
      recordReliability('pid-reuse', {
        title: "A killed build's marker naming a pid a live process was given since",
        test: "test/reliability/crash.test.ts 'a killed build whose marker names a pid another process has since'",
        cases: 1,
        unit: 'kill',
        result: "the rerun finishes the build: the store equals a clean load's, full-text and map indexes included",
      });
    });

  it('killed at least 20 times, every rerun equal to the clean load', () => {
    const killed = results.reduce((sum, r) => sum + r.killed, 0);
    recordReliability(ES ? 'crash-elasticsearch' : 'crash', {
      title: 'Indexer killed (SIGKILL) during a first build (batches, grouping, final build) and a later load, reruns killed too, then run again',
      test: 'test/reliability/crash.test.ts',
      cases: killed,
      unit: 'kills',
      result: `${results.filter((r) => r.equal).length} of ${results.length} loads, run again after ${killed} kills in all, hold exactly the clean load's store (content digest, full-text and map answers)`,
      details: { seed, records_first_load: FIRST_RECORDS, trials: results },
      backend: engine,
    });
    expect(killed).to.be.at.least(20);
    expect(results.every((r) => r.equal)).to.equal(true);
  });
});
