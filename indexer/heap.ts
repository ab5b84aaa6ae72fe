/**
 * Memory bounds of a load. The live data of a load is bounded (a batch, the dedup block cache, the
 * worker's chunks in flight), but V8 grows a busy heap lazily far beyond it, so that with Node's
 * defaults a load's RSS grows with its size. Capping the heaps makes V8 collect before it grows:
 * a far lower peak at about the same speed on large loads (docs/benchmarks-history.md).
 *
 * INDEXER_NODE_FLAGS are the flags `npm run indexer` starts node with (package.json repeats them)
 * and the benchmark's catalogue build uses; the parse worker gets its limits in code. Semi-spaces
 * half V8's default lower the load's peak at the same speed (docs/benchmarks-history.md).
 */
export const INDEXER_NODE_FLAGS = ['--max-old-space-size=256', '--max-semi-space-size=4'];

/**
 * The environment `npm run indexer` starts node with (package.json repeats it). glibc gives each
 * thread that allocates (main, parse worker, tsx's loader, libuv's pool) its own malloc arena, and
 * SQLite's page cache and row buffers churn through them: two arenas lower the load's peak RSS at
 * the same speed (docs/benchmarks-history.md).
 */
export const INDEXER_ENV = { MALLOC_ARENA_MAX: '2' };

/** The parse worker holds one chunk being parsed and the commune table: the cap is several times that. */
export const PARSE_WORKER_LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 };

/**
 * The grouping worker of a first build (indexer/dedup/group-worker.ts) holds one base's candidates
 * and the members it reads whole (a base grows with the catalogue, a few thousand listings at most)
 * and the pages of rows it has encoded and the load has not written yet (MAX_PAGES_AHEAD); it starts
 * after the parse worker has stopped. A larger cap raised the load's peak without helping: V8 grows
 * a busy heap far past its live data (see above).
 */
export const GROUP_WORKER_LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 };
/** SQLite page cache (MiB) of the grouping worker's read-only connection: the load's own (indexer/cli.ts). */
export const GROUP_WORKER_CACHE_MIB = 16;
