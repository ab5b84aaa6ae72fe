/**
 * A redis-server of the test's own, on a free port, that the test can stop and start again (the
 * shared Redis of REDIS_URL must never be stopped). Its data survives a restart (append-only file),
 * as a production Redis's would.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface PrivateRedis {
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  dispose(): Promise<void>;
}

export function hasRedisServer(): boolean {
  return spawnSync('redis-server', ['--version']).status === 0;
}

/** `persistent: false`: no append-only file, so a restart comes back empty (a Redis set up wrongly). */
export async function privateRedis(options: { persistent?: boolean } = {}): Promise<PrivateRedis> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'private-redis-'));
  const pidFile = path.join(dir, 'redis.pid');
  let pid: number | null = null;
  const redis: PrivateRedis = {
    url: `redis://127.0.0.1:${port}`,
    async start() {
      const started = spawnSync('redis-server', [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        ...(options.persistent === false ? ['--appendonly', 'no'] : ['--appendonly', 'yes', '--appendfsync', 'always']),
        '--dir',
        dir,
        '--daemonize',
        'yes',
        '--pidfile',
        pidFile,
        '--logfile',
        path.join(dir, 'redis.log'),
      ]);
      if (started.status !== 0) throw new Error(`redis-server did not start: ${started.stderr}`);
      // Redis listens before it writes its pid file: wait for both.
      await until(async () => existsSync(pidFile) && (await accepts(port)), 'redis-server to accept connections and write its pid file');
      pid = Number(readFileSync(pidFile, 'utf8').trim());
    },
    async stop() {
      if (pid === null) return;
      const stopped = pid;
      pid = null;
      process.kill(stopped, 'SIGTERM');
      await until(async () => !isAlive(stopped), `redis-server ${stopped} to exit`);
    },
    async dispose() {
      await redis.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await redis.start();
  return redis;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function until(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
