/**
 * `API_WORKERS=N` (N > 1): N API processes share the port with node:cluster, so the API uses every
 * core (one Node process runs JavaScript on one core; SQLite reads from several processes in WAL
 * mode do not block each other).
 *
 * The primary prepares the data directory once (sample load, demo key, cursor secret) with the
 * same code as a single process, then forks the workers and starts a new one when one dies. It
 * serves no request itself.
 *
 * Several processes need shared access state, so this mode needs REDIS_URL: the embedded access
 * file would serialise every request's counter transaction on SQLite's write lock, whose busy
 * handler sleeps (blocking a worker's event loop for a millisecond or more), and the in-memory rate
 * windows of one process would not see the other processes' requests.
 */
import cluster from 'node:cluster';
import type { Config } from './config/config.js';

export class ClusterConfigError extends Error {}

export function assertClusterConfig(config: Config): void {
  if (config.apiWorkers > 1 && !config.redisUrl) {
    throw new ClusterConfigError(
      `API_WORKERS=${config.apiWorkers} needs REDIS_URL: the API processes must share quota counters and rate windows ` +
        '(the embedded access backend serves one process; set API_WORKERS=1 or point REDIS_URL at a Redis server)',
    );
  }
}

/** Runs in the primary: forks the workers and keeps their number until SIGINT/SIGTERM. */
export function superviseWorkers(config: Config, log: (message: string, fields?: Record<string, unknown>) => void): void {
  let stopping = false;
  const fork = () => cluster.fork();
  for (let i = 0; i < config.apiWorkers; i++) fork();
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    log('API worker exited; starting another', { pid: worker.process.pid, code, signal });
    // A worker that dies at once (bad config, port taken) must not become a fork loop.
    setTimeout(fork, 1_000).unref();
  });
  const stop = () => {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    let left = Object.keys(cluster.workers ?? {}).length;
    if (left === 0) process.exit(0);
    cluster.on('exit', () => {
      if (--left <= 0) process.exit(0);
    });
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

export const isClusterPrimary = (config: Config): boolean => config.apiWorkers > 1 && cluster.isPrimary;
