/**
 * `npm run admin -- access copy-to-redis` (docs/migrating.md): keys created on the embedded access
 * file keep working, with their account's access start date and their status, against an API whose
 * access state is in Redis; a second run copies only what changed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../support/app.js';
import { createAccessBackend, type AccessBackend } from '../../src/open-access.js';
import { connectRedis, waitUntilReady } from '../../src/adapters/redis/client.js';
import { deleteKeys } from '../conformance/access/targets.js';

const CLI = path.resolve('src/admin/cli.ts');

function admin(env: Record<string, string>, ...args: string[]): { status: number | null; out: any; err: string } {
  const run = spawnSync(process.execPath, ['--import', 'tsx', CLI, ...args], { env: { ...process.env, ...env }, encoding: 'utf8' });
  return { status: run.status, out: run.stdout.trim() ? JSON.parse(run.stdout) : null, err: run.stderr };
}

describe('npm run admin -- access copy-to-redis', function () {
  this.timeout(60_000);
  const redisUrl = process.env.REDIS_URL;
  const keyPrefix = `test:copy-access:${process.pid}:${randomBytes(4).toString('hex')}:`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'copy-access-'));
  const embedded = { DATA_DIR: dataDir, REDIS_URL: '' };
  const toRedis = { DATA_DIR: dataDir, REDIS_URL: redisUrl ?? '', REDIS_KEY_PREFIX: keyPrefix };
  let backend: AccessBackend;
  let app: TestApp;

  before(async function () {
    if (!redisUrl) {
      console.warn('\n  !!! SKIPPING the copy to Redis: REDIS_URL is not set\n');
      this.skip();
    }
    backend = await createAccessBackend({ redisUrl, accessFile: '', keyPrefix });
    app = await startTestApp({ deps: { access: backend.access, metering: backend.metering } });
  });
  after(async () => {
    await app?.close();
    await backend?.close();
    if (!redisUrl) return;
    const cleaner = connectRedis(redisUrl);
    if (await waitUntilReady(cleaner, 2000)) await deleteKeys(cleaner, keyPrefix);
    cleaner.disconnect();
  });

  it('copies accounts and keys; the keys then answer on Redis with their access date and status', async () => {
    const kept = admin(embedded, 'keys', 'create', '--account', 'acme', '--offer', 'departement', '--created-at', '2026-01-15', '--history-days', '10');
    expect(kept.status, kept.err).to.equal(0);
    const revoked = admin(embedded, 'keys', 'create', '--account', 'acme', '--offer', 'departement', '--name', 'old');
    const other = admin(embedded, 'keys', 'create', '--account', 'beta', '--offer', 'secteur');
    expect(admin(embedded, 'keys', 'revoke', revoked.out.key).out).to.deep.equal({ revoked: 1 });
    // Before the copy Redis knows none of them.
    expect((await app.get('/ping', kept.out.key)).status).to.equal(401);

    const copy = admin(toRedis, 'access', 'copy-to-redis');
    expect(copy.status, copy.err).to.equal(0);
    expect(copy.out).to.deep.equal({ accounts: 2, keys: 3, keys_updated: 0 });

    const ping = await app.get('/ping', kept.out.key);
    expect(ping.status).to.equal(200);
    expect(ping.body).to.include({ tier: 'departement' });
    expect(ping.headers.get('x-annonces-from')).to.equal('2026-01-05');
    expect((await app.get('/ping', other.out.key)).body).to.include({ tier: 'secteur' });
    expect((await app.get('/ping', revoked.out.key)).body.code).to.equal('API_KEY_INVALID');
    expect((await backend.access.listAccounts()).map((a) => a.id)).to.deep.equal(['acme', 'beta']);
  });

  it('run again, copies new keys and brings statuses in line, nothing twice', async () => {
    const [beta] = (await backend.access.listKeys('beta')).map((k) => k.prefix);
    expect(admin(embedded, 'keys', 'block', beta).out).to.deep.equal({ blocked: 1 });
    const added = admin(embedded, 'keys', 'create', '--account', 'gamma', '--offer', 'ville');
    const again = admin(toRedis, 'access', 'copy-to-redis');
    expect(again.out).to.deep.equal({ accounts: 3, keys: 1, keys_updated: 1 });
    expect((await app.get('/ping', added.out.key)).body).to.include({ tier: 'ville' });
    expect((await backend.access.listKeys('beta')).map((k) => k.status)).to.deep.equal(['blocked']);
  });

  it('refuses without a target, naming REDIS_URL, and without an access file', () => {
    const noTarget = admin(embedded, 'access', 'copy-to-redis');
    expect([noTarget.status, noTarget.err]).to.satisfy(([status, err]: [number, string]) => status === 2 && err.includes('REDIS_URL'));
    const empty = admin({ ...toRedis, DATA_DIR: mkdtempSync(path.join(tmpdir(), 'copy-access-empty-')) }, 'access', 'copy-to-redis');
    expect(empty.status).to.equal(2);
    expect(empty.err).to.include('no access file');
  });
});
