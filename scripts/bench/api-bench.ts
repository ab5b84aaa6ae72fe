/**
 * Over 300 lines on purpose: the benchmark's one sequence, start to end, kept readable in order.
 *
 * The API benchmark: cached catalogue (SQLite, and the same records in Elasticsearch) -> for each
 * engine of --engines: bench key -> server child (start-up timed) -> for each scenario: warm-up, raw
 * store time in-process (server idle), one connection, then the load -> one table per engine, then
 * the engines side by side (same requests, same run).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { accessRedis, type BenchOptions, type Engine } from './options.js';
import { codeFingerprint, ensureCatalogue, storeBytes, type Catalogue } from './catalogue.js';
import { describeIndex, ensureEsCatalogue, localNodePids, type EsCatalogue } from './es-catalogue.js';
import { esIndexerRow, indexerSideBySide, runLabel, sideBySideTable, sqliteIndexerRow } from './side-by-side.js';
import { createBenchKey } from './bench-key.js';
import { BENCH_CURSOR_SECRET, startServer } from './server.js';
import { processTreeCpuMs, REPO_ROOT } from './child.js';
import { measureAlternated, type Side } from './alternate.js';
import { beforeKey, beforeTable, commitOf, prepareBefore, type BeforeCode, type BeforeRow } from './before-code.js';
import { RawStore } from './raw-store.js';
import { CAPTURED_PATHS, captureRequests, replayOnNode } from './es-direct.js';
import { ElasticsearchListingStore } from '../../src/adapters/elasticsearch/listing-store.js';
import { API_NODE_FLAGS } from '../../src/node-flags.js';
import { COMMON_WORD, RARE_WORDS, readFacts, type CatalogueFacts } from './fixtures.js';
import { selectScenarios, type Scenario, type ScenarioContext } from './scenarios.js';
import { runLoad, waitUntilIdle } from './load.js';
import { replicateFeed } from './replication.js';
import { measureTextPlans, type PlanRow } from './text-plans.js';
import { formatBytes, integer, log, markdownTable, ms, resultsTable, verdict, type ResultRow } from './report.js';
import { seededRandom } from './stats.js';
import { latestProfile, summariseProfile } from './profile.js';
import { calibrate, residentBytes, type Calibration } from './calibration.js';
import { recordApiRun } from './charts.js';
import { measureBare } from './baseline.js';
import { measureLogCost } from './log-cost.js';
import { COMPRESSION_SCENARIOS, compressionTable, measureCompression, type CompressionRow } from './compression.js';

export async function runApiBench(options: BenchOptions): Promise<void> {
  const scenarios = selectScenarios(options.scenario);
  const catalogue = await ensureCatalogue(options.listings, { rebuild: options.rebuild });
  // The same raw records in Elasticsearch, loaded before any server runs (the load is timed).
  const es = options.engines.includes('elasticsearch') ? await ensureEsCatalogue(catalogue, options.esUrl!, { rebuild: options.rebuild }) : null;
  // The requests are drawn from the SQLite copy for every engine, so both answer the same ones.
  const before = options.before ? await prepareBefore(options.before, catalogue, es) : null;
  const bench = await createBenchKey(catalogue.dataDir, accessRedis(options, options.workers[0]));
  const factsStore = RawStore.sqlite(catalogue.storeFile, bench.enteredFrom, BENCH_CURSOR_SECRET);
  let facts: CatalogueFacts;
  try {
    facts = readFacts(factsStore.store.database, bench.enteredFrom);
  } finally {
    await factsStore.close();
  }
  log(
    `catalogue: ${facts.searchable} searchable listings; biggest departments ${facts.departments
      .slice(0, 5)
      .map((d) => `${d.code} (${d.listings})`)
      .join(', ')}; ` +
      `documents per word: ${Object.entries(facts.wordDocs)
        .map(([w, n]) => `${w} ${n}`)
        .join(', ')}`,
  );
  const runs: EngineRun[] = [];
  for (const engine of options.engines)
    for (const workers of options.workers) runs.push(await runEngine(engine, workers, { options, scenarios, catalogue, es, facts, before }));
  let sideBySide = '';
  if (runs.length > 1) {
    const what = options.workers.length > 1 ? `${options.engines.length > 1 ? 'Engines and ' : ''}API processes` : 'Engines';
    sideBySide +=
      `\n## ${what} side by side: ${integer(catalogue.listings)} listings, ${options.connections} connections, same requests, same run\n\n${machine()}\n` +
      `${es ? `- ${describeIndex(es.url, es.alias, es.build.index)}\n` : ''}` +
      (options.workers.some((w) => w > 1) ? '- more than one API process: API_WORKERS (node:cluster), access state in Redis on the same 2 cores\n' : '') +
      `\n${sideBySideTable(runs.map((r) => ({ label: runLabel(r.engine, r.workers, options.workers.length > 1), rows: r.rows })))}\n`;
    if (es && options.engines.length > 1) {
      sideBySide +=
        `\n### The catalogue load of the same ${integer(catalogue.build.records)} raw records, engine by engine (npm run indexer -- load)\n\n` +
        `${indexerSideBySide([sqliteIndexerRow(catalogue.build, catalogue.build.storeBytes), esIndexerRow(es.build)])}\n`;
    }
  }
  // Each engine's tables were printed as it finished; the comparison comes last.
  process.stdout.write(sideBySide);
  if (options.markdown) {
    writeFileSync(options.markdown, runs.map((r) => r.report).join('') + sideBySide);
    log(`report written to ${options.markdown}`);
  }
}

interface EngineRun {
  engine: Engine;
  workers: number;
  rows: ResultRow[];
  report: string;
}

interface EngineDeps {
  options: BenchOptions;
  scenarios: Scenario[];
  catalogue: Catalogue;
  es: EsCatalogue | null;
  facts: CatalogueFacts;
  before: BeforeCode | null;
}

/**
 * Every scenario against one engine: a fresh bench account (no counters from the engine before),
 * a server child (`npm start`, plus ES_URL and ES_INDEX_ALIAS for Elasticsearch), the raw time on
 * the same store in-process; then this engine's tables, and its figures for the charts.
 */
async function runEngine(engine: Engine, workers: number, deps: EngineDeps): Promise<EngineRun> {
  const { options, scenarios, catalogue, es, facts, before } = deps;
  const redisUrl = accessRedis(options, workers);
  const bench = await createBenchKey(catalogue.dataDir, redisUrl);
  const esEnv: Record<string, string> = engine === 'elasticsearch' ? { ES_URL: es!.url, ES_INDEX_ALIAS: es!.alias } : {};
  log(
    `${engine}: starting the server (node --import tsx app/main.ts, DATA_DIR=${path.relative(process.cwd(), catalogue.dataDir)}` +
      `${engine === 'elasticsearch' ? `, ES_URL=${es!.url} ES_INDEX_ALIAS=${es!.alias}` : ''})`,
  );
  const profileDir = path.join(catalogue.dir, 'profiles');
  const serverOptions = { workers, redisUrl, env: esEnv };
  const server = await startServer(catalogue.dataDir, {
    nodeFlags: [...API_NODE_FLAGS, ...(options.profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [])],
    ...serverOptions,
  });
  log(`  answered /health after ${Math.round(server.startupMs)} ms`);
  const enginePids = engine === 'elasticsearch' ? await localNodePids(es!.url) : [];
  if (engine === 'elasticsearch')
    log(`  Elasticsearch node process${enginePids.length === 1 ? '' : 'es'} on this machine: ${enginePids.join(', ') || 'none (its CPU is not measured)'}`);
  const raw =
    engine === 'sqlite'
      ? RawStore.sqlite(catalogue.storeFile, bench.enteredFrom, BENCH_CURSOR_SECRET)
      : await RawStore.elasticsearch(es!.url, es!.alias, bench.enteredFrom, BENCH_CURSOR_SECRET);
  const beforeSide = before ? await startBefore(before, engine, es) : null;
  const beforeRows: BeforeRow[] = [];
  const rows: ResultRow[] = [];
  let plans: PlanRow[] = [];
  const cursorQueries: CursorQuery[] = [];
  let compression: CompressionRow[] = [];
  try {
    const ctx: ScenarioContext = {
      facts,
      random: seededRandom(2026),
      cursorPages: options.cursorPages,
      log,
      get: async (p) => {
        const response = await fetch(server.base + p, { headers: { 'x-api-key': bench.key } });
        return { status: response.status, body: await response.json() };
      },
    };
    for (const scenario of scenarios) {
      const row = await runScenario(scenario, ctx, { server, key: bench.key, raw, options, enginePids });
      rows.push(row);
      if (scenario.targets.some((t) => t.metric === 'logCost') && row.paths) {
        log('  the same requests at LOG_LEVEL=silent (a second server), alternated with the default level');
        const cost = await measureLogCost({
          server,
          dataDir: catalogue.dataDir,
          serverOptions: { ...serverOptions, nodeFlags: API_NODE_FLAGS },
          key: bench.key,
          paths: row.paths,
          connections: options.connections,
          seconds: options.duration,
          warmupSeconds: options.warmup + 2 * options.duration,
        });
        row.metrics.logCost = cost.lostPercent;
        row.note =
          `(log level: info ${integer(cost.infoRps)} req/s, ${ms(cost.infoCpuMs)} CPU ms/req; silent ${integer(cost.silentRps)} req/s, ` +
          `${ms(cost.silentCpuMs)} CPU ms/req: ${cost.lostPercent.toFixed(1)} % fewer at info)`;
        log(`  -> ${row.note}`);
      }
      if (beforeSide && scenario.kind === 'load' && row.paths?.length) {
        log(`  the same requests on the code before (${before!.commit}), alternated with this one`);
        const compared = await measureAlternated({
          a: { server, key: bench.key },
          b: beforeSide,
          paths: row.paths,
          connections: options.connections,
          // As long as the scenario's own run: a slow one answers nothing in a few seconds.
          seconds: row.loadSeconds ?? options.duration,
          warmupSeconds: options.warmup + options.duration,
        });
        beforeRows.push({ name: scenario.name, after: compared.a, before: compared.b });
        log(`  -> before ${integer(compared.b.rps)} req/s, after ${integer(compared.a.rps)} req/s`);
      }
      // The deep page's target compares it with page 1, so its verdict waits for both.
      const walk = cursorWalkRows(rows);
      if (walk) walk.deep.metrics.vsCursorPage1 = walk.deep.p50 / walk.page1.p50;
      log(`  -> ${verdict(rows.at(-1)!).text}`);
    }
    const walk = cursorWalkRows(rows);
    if (walk) {
      const { deep } = walk;
      // Per query, in-process: the mixed p50s above hide which query is slow on which page.
      for (const path of deep.paths ?? []) {
        const first = path.replace(/&cursor=[^&]*/, '');
        cursorQueries.push({
          query: first.replace('/annonces?', ''),
          page: pageOfCursor(path),
          page1Ms: await raw.medianMs([first], 7),
          deepMs: await raw.medianMs([path], 7),
        });
      }
    }
    // Compression and the full-text plans do not depend on the listings engine (compression) or are
    // SQLite's own (the plans): measured on the SQLite run only, with the first number of processes.
    const firstRun = engine === 'sqlite' && workers === options.workers[0];
    const compressible = firstRun
      ? rows.filter((r) => COMPRESSION_SCENARIOS.includes(r.name) && r.paths?.length).map((r) => ({ name: r.name, paths: r.paths! }))
      : [];
    if (compressible.length) {
      log(`compression: ${compressible.map((s) => s.name).join(', ')} with Accept-Encoding none, gzip and br`);
      compression = await measureCompression({
        base: server.base,
        key: bench.key,
        pid: server.pid,
        connections: options.connections,
        seconds: options.duration,
        scenarios: compressible,
      });
    }
    if (firstRun && scenarios.some((s) => s.name.startsWith('text'))) {
      log('full text: timing both plans and the chosen one');
      const depts = facts.departments.map((d) => d.code);
      plans = await measureTextPlans(
        catalogue.storeFile,
        bench.enteredFrom,
        BENCH_CURSOR_SECRET,
        [
          { label: 'common word + dept', words: COMMON_WORD, paths: depts.map((d) => `/annonces?q=${COMMON_WORD}&dept=${d}`) },
          ...RARE_WORDS.map((w) => ({
            label: 'rare word + dept + transaction',
            words: w,
            paths: depts.map((d) => `/annonces?q=${w}&dept=${d}&transaction=vente`),
          })),
        ],
        (w) => facts.wordDocs[w] ?? 0,
        Math.min(options.rawRuns, 5),
      );
    }
  } finally {
    await raw.close();
    await server.stop();
    await beforeSide?.server.stop();
  }
  let report = renderReport({ engine, workers, redisUrl }, options, catalogue, es, server, rows, plans, cursorQueries);
  if (compression.length) {
    report += `\n### Compression: bytes and server CPU per response by Accept-Encoding (${options.connections} connections, ${options.duration} s each)\n\n${compressionTable(compression)}\n`;
  }
  if (beforeRows.length) {
    report +=
      `\n### The code before (${before!.commit}) and this code (${commitOf(REPO_ROOT)}): the same requests, alternated (after, before, before, after), each run as long as the scenario's own (at least ${options.duration} s)\n\n` +
      `${beforeTable(beforeRows)}\n`;
  }
  const profileFile = options.profile ? latestProfile(profileDir) : null;
  if (profileFile) report += `\n### Where the server's time went (${scenarios.map((s) => s.name).join(', ')})\n\n${summariseProfile(profileFile)}\n`;
  process.stdout.write(report);
  // A run of every scenario replaces the charts' figures of its engine.
  if (options.scenario === null && workers === options.workers[0]) {
    const charts = await recordApiRun({
      engine,
      label: `${integer(catalogue.listings)} listings, ${new Date().toISOString().slice(0, 16)}Z`,
      figures: rows.map((r) => ({ scenario: r.name, p50: r.p50, p99: r.p99, rps: r.rps })),
    });
    log(`charts drawn: ${charts.map((f) => path.relative(process.cwd(), f)).join(', ')}`);
  }
  return { engine, workers, rows, report };
}

/** The server of the code before, on its own catalogue (its SQLite file or its alias), with its own bench key. */
async function startBefore(before: BeforeCode, engine: Engine, es: EsCatalogue | null): Promise<Side> {
  const key = await beforeKey(before);
  const env: Record<string, string> = engine === 'elasticsearch' ? { ES_URL: es!.url, ES_INDEX_ALIAS: before.esAlias! } : {};
  const server = await startServer(before.dataDir, { checkout: before, env, nodeFlags: API_NODE_FLAGS });
  return { server, key };
}

/** The two rows of the cursor walk (page 1 and the deep page), once both have run. */
function cursorWalkRows(rows: ResultRow[]): { page1: ResultRow; deep: ResultRow } | null {
  const page1 = rows.find((r) => r.name === 'cursor-p1');
  const deep = rows.find((r) => r.name === 'cursor-deep');
  return page1 && deep ? { page1, deep } : null;
}

interface CursorQuery {
  query: string;
  page: number;
  page1Ms: number;
  deepMs: number;
}

interface RunDeps {
  server: Awaited<ReturnType<typeof startServer>>;
  key: string;
  raw: RawStore;
  options: BenchOptions;
  /** Processes of the listings engine on this machine (the Elasticsearch node), whose CPU per request is measured too. */
  enginePids: number[];
}

async function runScenario(scenario: Scenario, ctx: ScenarioContext, deps: RunDeps): Promise<ResultRow> {
  const { server, key, raw, options, enginePids } = deps;
  log(`scenario ${scenario.name}: ${scenario.title}`);
  const paths = await scenario.paths(ctx);
  const probe = await ctx.get(paths[0]);
  log(`  ${paths.length} distinct requests; first: ${paths[0].slice(0, 140)} -> HTTP ${probe.status} ${describe(probe.body)}`);
  if (probe.status !== 200) throw new Error(`scenario ${scenario.name}: HTTP ${probe.status} ${JSON.stringify(probe.body).slice(0, 400)}`);
  // On Elasticsearch a search-like scenario is also held against the node answering the API's own requests.
  const direct = raw.store instanceof ElasticsearchListingStore && options.esUrl && scenario.kind === 'load' ? raw.store : null;
  const targets =
    direct && scenario.searchLike ? [...scenario.targets, { metric: 'vsDirect' as const, op: '>=' as const, value: VS_DIRECT_TARGET }] : scenario.targets;
  const base = { name: scenario.name, title: scenario.title, targets, paths };
  if (scenario.kind === 'replication') {
    const run = await replicateFeed(server.base, key, paths[0]);
    const rawMs = await raw.medianMs(run.samplePaths, options.rawRuns);
    log(`  ${run.listings} listings in ${run.pages} pages, ${run.seconds.toFixed(1)} s`);
    return {
      ...base,
      rps: run.rps,
      p50: run.p50,
      p99: run.p99,
      errors: run.non2xx,
      rawMs,
      singleP50: run.p50,
      metrics: { rps: run.rps, p50: run.p50, p99: run.p99, ratio: run.p50 / rawMs, listingsPerSecond: run.listingsPerSecond },
      note: `(${integer(run.listingsPerSecond)} listings/s: ${integer(run.listings)} listings in ${run.seconds.toFixed(1)} s)`,
    };
  }
  const spec = { base: server.base, key, paths };
  // The warm-up first, so that the raw time and the one-connection latency, which the ratio target
  // compares, are both measured in the steady state: the first scenario used to measure them on a
  // server just started (its code not yet optimised, its start-up reads under way).
  if (options.warmup > 0) {
    await runLoad({ ...spec, connections: options.connections, seconds: options.warmup });
    await waitUntilIdle(server.base);
  }
  const rawMs = await raw.medianMs(paths, options.rawRuns);
  // One connection: the API's own latency, without queueing (the ratio target reads it).
  const single = await runLoad({ ...spec, connections: 1, seconds: clamp((30 * rawMs) / 1000, 1.5, 20) });
  await waitUntilIdle(server.base);
  // Under C connections every request waits for the ones ahead of it (p50 ~ C x service time), so
  // a slow scenario gets a longer run: at least 3 rounds of the queue, at most 60 s.
  const round = (options.connections * single.p50) / 1000;
  const seconds = clamp(3 * round, options.duration, Math.max(options.duration, 60));
  const cpuBefore = processTreeCpuMs(server.pid);
  const engineBefore = enginesCpuMs(enginePids);
  const besidePaths = scenario.beside ? await scenario.beside(ctx) : null;
  const besideRun = besidePaths ? runLoad({ ...spec, paths: besidePaths, connections: options.connections, seconds }) : null;
  const run = await runLoad({ ...spec, connections: options.connections, seconds });
  const beside = besideRun ? await besideRun : null;
  const cpuAfter = processTreeCpuMs(server.pid);
  const engineAfter = enginesCpuMs(enginePids);
  const cpuPerRequest = cpuBefore !== null && cpuAfter !== null && run.requests > 0 ? (cpuAfter - cpuBefore) / run.requests : null;
  const engineCpuPerRequest = engineBefore !== null && engineAfter !== null && run.requests > 0 ? (engineAfter - engineBefore) / run.requests : null;
  await waitUntilIdle(server.base);
  // The same bytes from a bare node:http server, under the same loads: the bound HTTP itself sets.
  const bare = await measureBare({ ...spec, connections: options.connections, singleSeconds: clamp((30 * rawMs) / 1000, 1.5, 20), seconds: options.duration });
  let directRps: number | null = null;
  if (direct) {
    const sequences = await captureRequests(
      direct.client,
      paths.slice(0, CAPTURED_PATHS).map((p) => raw.callFor(p)),
    );
    // A route that asks the engine nothing (/ptz/zone) has no direct baseline.
    const replay = sequences.flat().length > 0 ? await replayOnNode(options.esUrl!, sequences, options.connections, seconds) : null;
    directRps = replay?.rps ?? null;
    if (!replay) log('  no Elasticsearch request: the route answers without the engine');
    else
      log(
        `  the same Elasticsearch requests sent straight to the node (${sequences.length} API requests, ${sequences.flat().length} node requests), ` +
          `${options.connections} connections, ${seconds.toFixed(0)} s: ${integer(replay.rps)} API requests' worth/s` +
          (replay.refused + replay.failures ? `; ${replay.refused} refused, ${replay.failures} failures` : ''),
      );
  }
  const errors = run.non2xx + run.failures + single.non2xx + single.failures;
  const besideNote = beside
    ? `(beside it, ${options.connections} connections asking ${besidePaths!.length} other requests: ${integer(beside.requests)} answers, ` +
      `${integer(beside.non2xx)} of them not 2xx (first ${beside.firstBadStatus ?? '-'}), p50 ${ms(beside.p50)} ms)`
    : undefined;
  if (besideNote) log(`  ${besideNote}`);
  log(
    `  1 connection: p50 ${ms(single.p50)} ms; ${options.connections} connections, ${seconds.toFixed(0)} s: ${run.requests} requests, ` +
      `${integer(run.rps)} req/s, p50 ${ms(run.p50)} ms, p99 ${ms(run.p99)} ms; raw ${ms(rawMs)} ms; server CPU ${ms(cpuPerRequest)} ms/request` +
      (engineCpuPerRequest === null ? '' : `, Elasticsearch CPU ${ms(engineCpuPerRequest)} ms/request`) +
      `; bare node:http server, same bytes (${bare.paths} answers): 1 connection p50 ${ms(bare.singleP50)} ms, ${options.connections} connections ${integer(bare.rps)} req/s p50 ${ms(bare.p50)} ms, CPU ${ms(bare.cpuMsPerRequest)} ms/request` +
      (errors
        ? `; ${errors} errors (first status ${run.firstBadStatus ?? single.firstBadStatus}, first failure ${run.firstFailure ?? single.firstFailure})`
        : ''),
  );
  return {
    ...base,
    loadSeconds: seconds,
    rps: run.rps,
    p50: run.p50,
    p99: run.p99,
    errors,
    rawMs,
    singleP50: single.p50,
    cpuMsPerRequest: cpuPerRequest,
    engineCpuMsPerRequest: engineCpuPerRequest,
    bareP50: bare.singleP50,
    bareLoadP50: bare.p50,
    bareCpuMsPerRequest: bare.cpuMsPerRequest,
    directRps,
    note: besideNote,
    metrics: {
      ...(directRps ? { vsDirect: run.rps / directRps } : {}),
      rps: run.rps,
      p50: run.p50,
      p99: run.p99,
      ratio: single.p50 / rawMs,
      vsBare1c: single.p50 / bare.singleP50,
      ...(cpuPerRequest === null ? {} : { cpuVsRaw: cpuPerRequest / rawMs }),
      ...(cpuPerRequest === null || !bare.cpuMsPerRequest ? {} : { cpuVsBare: cpuPerRequest / bare.cpuMsPerRequest }),
    },
  };
}

/** CPU ms used so far by these processes together; null when one is not readable. */
function enginesCpuMs(pids: number[]): number | null {
  if (pids.length === 0) return null;
  let total = 0;
  for (const pid of pids) {
    const used = processTreeCpuMs(pid);
    if (used === null) return null;
    total += used;
  }
  return total;
}

/** The API on Elasticsearch against the node answering the same requests directly, in requests/s. */
const VS_DIRECT_TARGET = 0.75;

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** The page number a search cursor opens (its payload ends with it, see the annonces handler). */
function pageOfCursor(path: string): number {
  const cursor = new URL(path, 'http://bench').searchParams.get('cursor') ?? '';
  const payload = JSON.parse(Buffer.from(cursor.split('.')[0], 'base64url').toString('utf8')) as { p: unknown[] };
  return Number(payload.p.at(-1));
}

function describe(body: any): string {
  if (!body || typeof body !== 'object') return '';
  if (Array.isArray(body.items))
    return `(${body.items.length} items${typeof body.total === 'number' ? `, total ${body.total}` : ''}${body.has_more ? ', has_more' : ''})`;
  if (body.annonce) return '(one listing)';
  if (body.zone) return `(zone ${body.zone})`;
  return '';
}

function renderReport(
  { engine, workers, redisUrl }: { engine: Engine; workers: number; redisUrl: string | null },
  options: BenchOptions,
  catalogue: Catalogue,
  es: EsCatalogue | null,
  server: { startupMs: number; rss: { peakMiB: number | null; peakAnonMiB: number | null } },
  rows: ResultRow[],
  plans: PlanRow[],
  cursorQueries: CursorQuery[],
): string {
  const b = catalogue.build;
  const storeLines =
    engine === 'sqlite'
      ? [
          `- catalogue: ${integer(b.records)} raw records loaded by the indexer: ${integer(b.recordsPerSecond)} records/s (indexer report), ` +
            `${integer(b.endToEndPerSecond)} records/s end to end, peak RSS ${b.peakRssMiB ?? '-'} MiB; built ${b.builtAt}` +
            (b.code === codeFingerprint() ? '' : ' by OLDER indexer/schema code than the current one (--rebuild)'),
          `- store file: ${formatBytes(storeBytes(catalogue.storeFile))} (${path.relative(process.cwd(), catalogue.storeFile)})${inPageCache(catalogue.storeFile)}`,
        ]
      : [
          `- catalogue: the same ${integer(es!.build.records)} raw records (${path.relative(process.cwd(), catalogue.sampleFile)}) loaded by the indexer into Elasticsearch: ` +
            `${integer(es!.build.recordsPerSecond)} records/s (indexer report), ${integer(es!.build.endToEndPerSecond)} records/s end to end, indexer peak RSS ${es!.build.peakRssMiB ?? '-'} MiB; loaded ${es!.build.builtAt}`,
          `- ${describeIndex(es!.url, es!.alias, es!.build.index)}`,
        ];
  const listingsIn = engine === 'sqlite' ? 'listings in SQLite' : `listings in Elasticsearch (${es!.alias})`;
  const lines = [
    '',
    `## API benchmark, ${runLabel(engine, workers, workers > 1)}: ${integer(catalogue.listings)} listings, ${options.connections} connections, ${options.duration} s per scenario`,
    '',
    machine(),
    '',
    ...storeLines,
    `- server: ${workers} API process${workers > 1 ? 'es (API_WORKERS, node:cluster)' : ''} started as \`npm start\` (default settings, LOG_LEVEL info), ${listingsIn}, access state (keys, quota counters, rate windows) ` +
      (redisUrl ? 'in Redis (redis-server on the same 2 cores)' : 'in the embedded access file and in-process windows'),
    `- CPU ms/req: CPU of the server's processes (from /proc) per request under the ${options.connections}-connection load; req/s on ONE core is at most 1000 / that` +
      (engine === 'elasticsearch' ? '; ES CPU ms/req: the same for the Elasticsearch node(s) when they run on this machine (the same cores)' : ''),
    `- server start-up to first /health answer: ${Math.round(server.startupMs)} ms (target < 3000 ms: ${server.startupMs < 3000 ? 'met' : 'MISSED'}); server peak RSS ${server.rss.peakMiB?.toFixed(0) ?? '-'} MiB, of which anonymous memory at most ${server.rss.peakAnonMiB?.toFixed(0) ?? '-'} MiB (the rest: file pages it maps, e.g. the store file with SQLITE_MMAP_MIB)`,
    `- raw ms: median of ${options.rawRuns} in-process calls of the same store method with the same engine-neutral query (the store's physical limit${engine === 'elasticsearch' ? '; for Elasticsearch an ElasticsearchListingStore on the same alias, so it includes the HTTP round trip to the cluster' : ''})`,
    `- p50 1c: p50 with ONE connection (no queueing); 1c/raw = that p50 / raw ms, the API's own overhead factor (the ratio target reads it)`,
    `- req/s, p50, p99, errors: ${options.connections} connections; with C busy connections p50 is about C x the service time (Little's law), so it is mostly queueing`,
    '',
    resultsTable(rows),
    '',
  ];
  if (cursorQueries.length) {
    lines.push('### Cursor walk per query (raw store, median ms)', '');
    lines.push(
      markdownTable(
        ['query', 'page 1', 'deep page', 'deep page ms', 'deep / page 1'],
        cursorQueries.map((c) => [c.query, ms(c.page1Ms), String(c.page), ms(c.deepMs), (c.deepMs / c.page1Ms).toFixed(2)]),
      ),
      '',
    );
  }
  if (plans.length) {
    lines.push('### Full text + filters: both plans, and the per-query choice (raw store, median ms)', '');
    lines.push(
      markdownTable(
        ['query', 'word', 'docs', 'text first', 'index first, FTS5 per row', 'index first, document set', 'chosen', 'chosen ms'],
        plans.map((p) => [p.label, p.words, integer(p.docs), ms(p.textFirstMs), ms(p.indexFirstFtsMs), ms(p.indexFirstMs), p.chosen, ms(p.chosenMs)]),
      ),
      '',
    );
    for (const p of plans.slice(0, 2)) {
      lines.push(
        `EXPLAIN QUERY PLAN, ${p.label} (${p.words}):`,
        '```',
        '-- text first',
        p.explain['text-first'],
        '-- index first',
        p.explain['index-first'],
        '```',
        '',
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

export function machine(calibration: Calibration = calibrate()): string {
  const cpu = /model name\s*:\s*(.*)/.exec(safeRead('/proc/cpuinfo'))?.[1] ?? os.cpus()[0]?.model ?? 'unknown';
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  return (
    `- machine: ${os.cpus().length} cores (${cpu}), ${(os.totalmem() / 1024 ** 3).toFixed(0)} GiB RAM, node ${process.version}, ` +
    `load average (1, 5, 15 min) when printed: ${load}; reference work (calibration.ts, lower is faster): ${referenceWork(calibration)}`
  );
}

function inPageCache(file: string): string {
  const resident = residentBytes(file);
  return resident === null ? '' : `, of which ${formatBytes(resident)} in the page cache when printed (fincore)`;
}

export function referenceWork(calibration: Calibration): string {
  return `JS loop ${calibration.jsMs.toFixed(0)} ms, SQLite ${calibration.sqliteMs.toFixed(0)} ms`;
}

function safeRead(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
