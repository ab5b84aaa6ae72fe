/**
 * Every setting of the service, parsed once at start-up with zod and passed down. Modules never
 * read process.env themselves.
 */
import { z } from 'zod';
import path from 'node:path';

const optionalString = z.string().trim().min(1).optional().catch(undefined);

export const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  ES_URL: optionalString,
  ES_INDEX_ALIAS: z.string().default('annonces'),
  ES_API_KEY: optionalString,
  ES_USERNAME: optionalString,
  ES_PASSWORD: optionalString,
  ES_CA_FILE: optionalString,
  /** How long an indexer may go without renewing its writer lock before it stops and another may take over. */
  ES_WRITER_LEASE_SECONDS: z.coerce.number().min(1).max(3600).default(60),
  /** Replicas of the index generations created from now on; unset: the mapping file's auto-expansion (one node). */
  ES_INDEX_REPLICAS: z.coerce.number().int().min(0).max(10).optional(),
  REDIS_URL: optionalString,
  /** Prefix of every Redis key of the service, so several environments can share one Redis. */
  REDIS_KEY_PREFIX: z.string().min(1).default('annonces:'),
  /** Secret signing cursors; when absent one is generated and kept in the data directory. */
  CURSOR_SECRET: optionalString,
  /** Safety delay of the change feed (docs/api.md: about 2 minutes). */
  FEED_SETTLE_SECONDS: z.coerce.number().int().min(0).default(120),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Records of the bundled sample loaded on first start. */
  SAMPLE_COUNT: z.coerce.number().int().min(0).default(20000),
  /** API processes sharing the port (node:cluster); more than 1 needs REDIS_URL (src/cluster.ts). */
  API_WORKERS: z.coerce.number().int().min(1).max(64).default(1),
  /**
   * Memory-mapped part of the listings file for the API's reads (SQLite `mmap_size`; 0: none). SQLite
   * as built by better-sqlite3 maps at most 2 047 MiB.
   */
  SQLITE_MMAP_MIB: z.coerce.number().int().min(0).max(2047).default(2047),
  /** Port of the Prometheus metrics (GET /metrics); unset: no metrics. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** 1: alert URLs may name loopback, link-local and private addresses (docs/api.md "Alerts"). */
  ALERT_PRIVATE_URLS: z.enum(['0', '1']).default('0'),
  /** How often the notifier looks for new changes (npm run notifier). */
  NOTIFIER_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(1_000),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  listingsFile: string;
  accessFile: string;
  elasticsearch: {
    url: string;
    alias: string;
    apiKey?: string;
    username?: string;
    password?: string;
    caFile?: string;
    writerLeaseMs: number;
    replicas?: number;
  } | null;
  redisUrl: string | null;
  redisKeyPrefix: string;
  cursorSecret: string | undefined;
  feedSettleMs: number;
  logLevel: z.infer<typeof ConfigSchema>['LOG_LEVEL'];
  sampleCount: number;
  apiWorkers: number;
  sqliteMmapMiB: number;
  metricsPort: number | null;
  alertPrivateUrls: boolean;
  notifierPollMs: number;
}

export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = ConfigSchema.parse(env);
  const dataDir = path.resolve(parsed.DATA_DIR);
  return {
    port: parsed.PORT,
    host: parsed.HOST,
    dataDir,
    listingsFile: path.join(dataDir, 'listings.sqlite'),
    accessFile: path.join(dataDir, 'access.sqlite'),
    elasticsearch: parsed.ES_URL
      ? {
          url: parsed.ES_URL,
          alias: parsed.ES_INDEX_ALIAS,
          apiKey: parsed.ES_API_KEY,
          username: parsed.ES_USERNAME,
          password: parsed.ES_PASSWORD,
          caFile: parsed.ES_CA_FILE,
          writerLeaseMs: parsed.ES_WRITER_LEASE_SECONDS * 1000,
          replicas: parsed.ES_INDEX_REPLICAS,
        }
      : null,
    redisUrl: parsed.REDIS_URL ?? null,
    redisKeyPrefix: parsed.REDIS_KEY_PREFIX,
    cursorSecret: parsed.CURSOR_SECRET,
    feedSettleMs: parsed.FEED_SETTLE_SECONDS * 1000,
    logLevel: parsed.LOG_LEVEL,
    sampleCount: parsed.SAMPLE_COUNT,
    apiWorkers: parsed.API_WORKERS,
    sqliteMmapMiB: parsed.SQLITE_MMAP_MIB,
    metricsPort: parsed.METRICS_PORT ?? null,
    alertPrivateUrls: parsed.ALERT_PRIVATE_URLS === '1',
    notifierPollMs: parsed.NOTIFIER_POLL_MS,
  };
}
