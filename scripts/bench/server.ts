/**
 * The real server (`npm start` = app/main.ts, with its node flags and its default settings and log
 * level) as a child process on the cached DATA_DIR, so the load generator and the server never share
 * one event loop. The harness sets only what it must: the port, DATA_DIR (the catalogue and the bench
 * account), the cursor secret (the raw store decodes the cursors), FEED_SETTLE_SECONDS=0 (a catalogue
 * loaded a minute ago is replicable whole), and ES_URL/ES_INDEX_ALIAS for the Elasticsearch engine. Start-up is timed from spawn to the
 * first 200 of /health (target: under 3 s on an existing store).
 */
import { createServer } from 'node:net';
import type { ChildProcess } from 'node:child_process';
import { childEnv, spawnTs, watchPeakRss, type PeakRssWatch } from './child.js';
import { BENCH_REDIS_PREFIX } from './bench-key.js';

/** Cursors stay decodable by the raw store timing of the harness. */
export const BENCH_CURSOR_SECRET = 'bench-cursor-secret';

export interface RunningServer {
  /** `http://127.0.0.1:<port>/api/v1` */
  base: string;
  pid: number;
  startupMs: number;
  rss: PeakRssWatch;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export interface ServerOptions {
  timeoutMs?: number;
  nodeFlags?: string[];
  /** API_WORKERS of the server (default 1). */
  workers?: number;
  /** Access state in this Redis (under BENCH_REDIS_PREFIX) instead of the access file. */
  redisUrl?: string | null;
  /** Added to its environment: ES_URL and ES_INDEX_ALIAS for the Elasticsearch engine. */
  env?: Record<string, string>;
  /** Another checkout's server (the code before a change, before-code.ts) instead of this one's. */
  checkout?: { dir: string; entry: string };
  /** LOG_LEVEL of the server; unset (the default, info) unless a comparison asks for another (log-cost.ts). */
  logLevel?: string;
}

export async function startServer(dataDir: string, options: ServerOptions = {}): Promise<RunningServer> {
  const port = await freePort();
  const started = process.hrtime.bigint();
  const env = childEnv({
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    // The feed serves listings changed at least FEED_SETTLE_SECONDS ago; a catalogue loaded a
    // minute ago must be replicable whole.
    FEED_SETTLE_SECONDS: '0',
    CURSOR_SECRET: BENCH_CURSOR_SECRET,
    API_WORKERS: String(options.workers ?? 1),
    ...(options.redisUrl ? { REDIS_URL: options.redisUrl, REDIS_KEY_PREFIX: BENCH_REDIS_PREFIX } : {}),
    ...options.env,
  });
  // The server logs as `npm start` does (LOG_LEVEL's default, info: one JSON line per request, read
  // and dropped by this process), not silenced: its cost is part of what users run.
  delete env.LOG_LEVEL;
  if (options.logLevel) env.LOG_LEVEL = options.logLevel;
  const child = spawnTs(options.checkout?.entry ?? 'app/main.ts', [], env, options.nodeFlags, options.checkout?.dir);
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  child.stdout!.resume();
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const rss = watchPeakRss(child.pid!);
  const base = `http://127.0.0.1:${port}/api/v1`;
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  let exitCode: number | null | undefined;
  let stopping = false;
  void exited.then((code) => {
    exitCode = code;
    // A server that dies under load must say why, not leave a bare ECONNRESET in the harness.
    if (!stopping) process.stderr.write(`[bench] the server exited with ${code}; its last stderr:\n${stderr}\n`);
  });
  while (true) {
    if (exitCode !== undefined) throw new Error(`server exited with ${exitCode} before answering /health:\n${stderr}`);
    if (Date.now() > deadline) {
      await stop(child, exited);
      throw new Error(`server not ready after ${options.timeoutMs ?? 120_000} ms:\n${stderr}`);
    }
    const ok = await fetch(`${base}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return {
    base,
    pid: child.pid!,
    startupMs: Number(process.hrtime.bigint() - started) / 1e6,
    rss,
    stop: () => {
      stopping = true;
      rss.stop();
      return stop(child, exited);
    },
  };
}

async function stop(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
