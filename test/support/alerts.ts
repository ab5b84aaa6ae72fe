/**
 * Alerts over HTTP for the tests: the app on either access backend (SQLite, or Redis under a key
 * prefix of its own, removed at close), loopback receivers allowed, and a POST helper.
 */
import { randomBytes } from 'node:crypto';
import { startTestApp, type TestApp, type TestAppOptions } from './app.js';
import { connectRedis, waitUntilReady } from '../../src/adapters/redis/client.js';
import { deleteKeys } from '../conformance/access/targets.js';

export type AccessBackendName = 'sqlite' | 'redis';

/** Runs `body` once per access backend; Redis is skipped loudly without REDIS_URL (a failure with REQUIRE_ALL_ENGINES). */
export function describeAccessBackends(title: string, body: (this: Mocha.Suite, access: AccessBackendName) => void): void {
  for (const access of ['sqlite', 'redis'] as const) {
    describe(`${title} [access ${access}]`, function () {
      if (access === 'sqlite' || process.env.REDIS_URL) return body.call(this, access);
      it('runs on Redis', function () {
        if (process.env.REQUIRE_ALL_ENGINES) throw new Error('Redis is required here: REDIS_URL is not set');
        this.skip();
      });
    });
  }
}

export async function startAlertApp(access: AccessBackendName, options: TestAppOptions = {}): Promise<TestApp & { env: Record<string, string> }> {
  const env: Record<string, string> = { ALERT_PRIVATE_URLS: '1', ...options.env };
  if (access === 'redis')
    Object.assign(env, { REDIS_URL: process.env.REDIS_URL!, REDIS_KEY_PREFIX: `test:alerts:${process.pid}:${randomBytes(4).toString('hex')}:` });
  const app = await startTestApp({ ...options, env });
  return {
    ...app,
    env,
    async close() {
      await app.close();
      if (access !== 'redis') return;
      const client = connectRedis(env.REDIS_URL);
      await waitUntilReady(client, 3000);
      await deleteKeys(client, env.REDIS_KEY_PREFIX);
      client.disconnect();
    },
  };
}

export async function send(
  app: TestApp,
  method: string,
  path: string,
  key: string | null,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: any }> {
  const response = await fetch(app.base + path, {
    method,
    headers: { ...(key ? { 'X-Api-Key': key } : {}), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}
