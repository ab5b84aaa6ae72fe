/**
 * Memory bounds of a load. The live data of a load is bounded (a batch, the dedup block cache, the
 * worker's chunks in flight), but V8 grows a busy heap lazily far beyond it: with Node's defaults a
 * 100 000-record load peaked at 1.1 GB of RSS, a 1M load at 1.6 GB. Capping the heaps makes V8
 * collect before it grows: 511 MiB at 1M at the same speed, 470 MB at 100k for a load 25 % slower
 * (docs/benchmarks-history.md).
 *
 * INDEXER_NODE_FLAGS are the flags `npm run indexer` starts node with (package.json repeats them)
 * and the benchmark's catalogue build uses; the parse worker gets its limits in code. Semi-spaces of
 * 4 MiB instead of 8: a 1M load peaked at 375 MB instead of 408 MB at the same speed (2 326 against
 * 2 334 records/s; docs/benchmarks-history.md).
 */
export const INDEXER_NODE_FLAGS = ['--max-old-space-size=256', '--max-semi-space-size=4'];

/**
 * The environment `npm run indexer` starts node with (package.json repeats it). glibc gives each
 * thread that allocates (main, parse worker, tsx's loader, libuv's pool) its own malloc arena, and
 * SQLite's page cache and row buffers churn through them: at 200k records the load's RSS peaked at
 * 430 MB with the default arenas and 400 MB with two, at the same speed (docs/benchmarks-history.md).
 */
export const INDEXER_ENV = { MALLOC_ARENA_MAX: '2' };

/** The parse worker holds one chunk being parsed and the commune table: 64 MiB is several times that. */
export const PARSE_WORKER_LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 };

/**
 * The grouping worker of a first build (indexer/dedup/group-worker.ts) holds one base's candidates
 * and the members it reads whole (the biggest base of the 1M sample holds 1 335 listings, so about
 * 7 000 at 5M) and the pages of rows it has encoded and the load has not written yet (MAX_PAGES_AHEAD
 * of about 8 MB); it starts after the parse worker has stopped. With 128 MiB the 1M load peaked at
 * 388 MB (370 MiB) instead of 299 MB: V8 grows a busy heap far past its live data (see above).
 */
export const GROUP_WORKER_LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 };
/** SQLite page cache (MiB) of the grouping worker's read-only connection: the load's own (indexer/cli.ts). */
export const GROUP_WORKER_CACHE_MIB = 16;
