/**
 * Command line of the benchmark suite (npm run bench -- ...). Benchmarks print figures; they never
 * fail a build on a time (docs/architecture.md: speed is shown by a script, not by a timed test).
 */
import { parseArgs } from 'node:util';

export interface BenchOptions {
  /** Catalogue size (site listings generated and loaded) for the API benchmark. */
  listings: number;
  /** Run only this scenario (a name of scenarios.ts, or a prefix of several). */
  scenario: string | null;
  /** Indexer benchmark instead of the API benchmark. */
  indexer: boolean;
  /** Raw records loaded by the indexer benchmark. */
  records: number;
  /** Records of the indexer's stages timed alone (indexer-stages.ts); 0 skips them. */
  stageRecords: number;
  /** Seconds of load per scenario. */
  duration: number;
  /**
   * Seconds of unrecorded load before each scenario (fills the server's page cache, JIT). 5: with 1 s
   * the first scenario after start-up measured 1 447 req/s on 2 workers, 2 087 req/s after 5 s.
   */
  warmup: number;
  connections: number;
  /** In-process store calls per scenario for the raw time (median). */
  rawRuns: number;
  /** Pages walked for the cursor scenario (the target says 1 000). */
  cursorPages: number;
  /** Throw the cached catalogue away and build it again. */
  rebuild: boolean;
  /** Also write the report as Markdown to this file. */
  markdown: string | null;
  /** Run the server (or the indexer) with `node --cpu-prof` and print where its time went. */
  profile: boolean;
  /**
   * API processes (API_WORKERS) of each run, in this order, in the same run (`--workers 1,2`); more
   * than 1 puts the access state in Redis, as `npm start` requires.
   */
  workers: number[];
  /** Redis of the access state (accounts, counters, rate windows) of the runs that use it (accessRedis). */
  redisUrl: string;
  /** `--access redis`: Redis for the one-process runs too (else the embedded access file, as `npm start`). */
  redisForOneProcess: boolean;
  /** Listings engines benchmarked, in this order, in the same run (--engines). */
  engines: Engine[];
  /** Elasticsearch of the `elasticsearch` engine (ES_URL), or null when it is not benchmarked. */
  esUrl: string | null;
  /** `--alerts N`: the alerts benchmark with N alerts instead of the API benchmark (alerts-bench.ts). */
  alerts: number | null;
  /** `--before DIR`: another checkout (the code before a change) measured beside this one, alternately (before-code.ts). */
  before: string | null;
  /** Changes loaded by the alerts benchmark. */
  changes: number;
}

export const ENGINES = ['sqlite', 'elasticsearch'] as const;
export type Engine = (typeof ENGINES)[number];

export const USAGE = `usage: npm run bench -- [--listings N] [--scenario NAME] [--duration S] [--connections C]
                     [--warmup S] [--raw-runs N] [--cursor-pages N] [--rebuild] [--markdown FILE] [--profile]
                     [--workers N[,N...]] [--access sqlite|redis]   (redis: REDIS_URL or redis://127.0.0.1:6379; N > 1 needs it)
                     [--engines sqlite,elasticsearch] [--before DIR]
       npm run bench -- --indexer [--records N] [--stage-records N] [--profile] [--engines sqlite,elasticsearch]
       npm run bench -- --alerts N [--changes N]   (alerts delivered by the notifier: events/s and lag)
       npm run bench -- --list
--engines: the listings engines to run, one after the other in the same run; default both when
ES_URL is set (the Elasticsearch of the elasticsearch engine), else sqlite only.
--workers 1,2: each engine run with one API process, then with two (API_WORKERS=2, access in Redis),
side by side in one table.
--before DIR: DIR is another checkout of this repository (the code before a change, with its
node_modules); its indexer loads the same records, its server answers each scenario's requests
alternately with this one's, and a table gives both codes' requests/s and CPU per request.`;

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv = process.env): BenchOptions | 'list' {
  const { values } = parseArgs({
    args: argv,
    options: {
      listings: { type: 'string' },
      scenario: { type: 'string' },
      indexer: { type: 'boolean' },
      records: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      'raw-runs': { type: 'string' },
      'cursor-pages': { type: 'string' },
      rebuild: { type: 'boolean' },
      markdown: { type: 'string' },
      list: { type: 'boolean' },
      profile: { type: 'boolean' },
      workers: { type: 'string' },
      access: { type: 'string' },
      'stage-records': { type: 'string' },
      engines: { type: 'string' },
      alerts: { type: 'string' },
      changes: { type: 'string' },
      before: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) throw new UsageError('');
  if (values.list) return 'list';
  const workers = (values.workers ?? '1').split(',').map((w) => count('workers', w.trim(), 1));
  if (new Set(workers).size !== workers.length) throw new UsageError(`--workers names a count twice: "${values.workers}"`);
  const access = values.access;
  if (access !== undefined && access !== 'sqlite' && access !== 'redis') throw new UsageError(`--access must be sqlite or redis, got "${access}"`);
  if (workers.some((w) => w > 1) && access === 'sqlite') throw new UsageError('--workers above 1 needs --access redis (API_WORKERS > 1 needs REDIS_URL)');
  const esUrl = env.ES_URL || null;
  const engines = parseEngines(values.engines, esUrl);
  return {
    listings: count('listings', values.listings, 1_000_000),
    scenario: values.scenario ?? null,
    indexer: values.indexer ?? false,
    records: count('records', values.records, 1_000_000),
    stageRecords: count('stage-records', values['stage-records'], 100_000, 0),
    duration: seconds('duration', values.duration, 5),
    warmup: seconds('warmup', values.warmup, 5),
    connections: count('connections', values.connections, 50),
    rawRuns: count('raw-runs', values['raw-runs'], 21),
    cursorPages: count('cursor-pages', values['cursor-pages'], 1000),
    rebuild: values.rebuild ?? false,
    markdown: values.markdown ?? null,
    profile: values.profile ?? false,
    workers,
    redisUrl: env.REDIS_URL || 'redis://127.0.0.1:6379',
    redisForOneProcess: access === 'redis',
    engines,
    esUrl: engines.includes('elasticsearch') ? esUrl : null,
    alerts: values.alerts === undefined ? null : count('alerts', values.alerts, 200),
    changes: count('changes', values.changes, 10_000),
    before: values.before ?? null,
  };
}

/** `--engines a,b`: known names, no repeats; default both with ES_URL, else SQLite alone. */
export function parseEngines(value: string | undefined, esUrl: string | null): Engine[] {
  if (value === undefined) return esUrl ? ['sqlite', 'elasticsearch'] : ['sqlite'];
  const names = value
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !(ENGINES as readonly string[]).includes(n));
  if (names.length === 0 || unknown.length) throw new UsageError(`--engines takes ${ENGINES.join(', ')} (comma-separated), got "${value}"`);
  if (new Set(names).size !== names.length) throw new UsageError(`--engines names an engine twice: "${value}"`);
  if (names.includes('elasticsearch') && !esUrl) throw new UsageError('--engines elasticsearch needs ES_URL (e.g. ES_URL=http://127.0.0.1:9200)');
  return names as Engine[];
}

export class UsageError extends Error {}

/** The Redis of a run with `workers` API processes, or null for the embedded access file. */
export function accessRedis(options: Pick<BenchOptions, 'redisUrl' | 'redisForOneProcess'>, workers: number): string | null {
  return workers > 1 || options.redisForOneProcess ? options.redisUrl : null;
}

/** Accepts 1000000, 1_000_000, 1e6, 1M, 20k. */
function count(name: string, value: string | undefined, fallback: number, least = 1): number {
  if (value === undefined) return fallback;
  const match = /^(\d+(?:\.\d+)?(?:e\d+)?)([kKmM]?)$/.exec(value.replace(/[_\s]/g, ''));
  const n = match ? Number(match[1]) * ({ k: 1e3, K: 1e3, m: 1e6, M: 1e6 }[match[2]] ?? 1) : NaN;
  if (!Number.isInteger(n) || n < least) throw new UsageError(`--${name} must be an integer >= ${least}, got "${value}"`);
  return n;
}

function seconds(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new UsageError(`--${name} must be a number of seconds, got "${value}"`);
  return n;
}
