/**
 * API_WORKERS > 1: `npm start` as an operator runs it (app/main.ts as a child process), several
 * worker processes on one port sharing the access state in Redis. Checked over HTTP: every answer
 * is right, the counters are exact across processes, a dead worker is replaced, and the mode
 * refuses to start without Redis.
 */
import { expect } from 'chai';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { createServer } from 'node:net';
import { rawRecord, writeNdjson } from '../../support/raw.js';

const run = promisify(execFile);
const TSX = path.resolve('node_modules/.bin/tsx');
const REDIS_URL = process.env.REDIS_URL;

function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid ? [Number(entry)] : [];
      } catch {
        return [];
      }
    });
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** One request on its own connection (no keep-alive), so the cluster can hand each one to another worker. */
function get(port: number, pathname: string, key: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path: `/api/v1${pathname}`, headers: { 'x-api-key': key }, agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.setTimeout(10_000, () => request.destroy(new Error(`no answer to ${pathname} within 10 s`)));
    request.on('error', reject);
  });
}

describe('API_WORKERS: several API processes on one port', function () {
  this.timeout(90_000);

  it('refuses to start without REDIS_URL, naming the setting', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cluster-'));
    const failure = await run(TSX, ['app/main.ts'], {
      env: { ...process.env, DATA_DIR: dataDir, API_WORKERS: '2', REDIS_URL: '', SAMPLE_COUNT: '0', PORT: '0' },
    }).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure, 'the server started').to.not.equal(null);
    expect(failure!.code).to.equal(1);
    expect(failure!.stderr).to.contain('API_WORKERS=2 needs REDIS_URL');
  });

  describe('with Redis', () => {
    let server: ChildProcess | null = null;
    let port = 0;
    let key = '';
    let slowKey = '';
    let metricsPort = 0;
    const prefix = `annonces-test-cluster-${process.pid}-${Date.now()}:`;

    before(async function () {
      if (!REDIS_URL) this.skip();
      const dataDir = mkdtempSync(path.join(tmpdir(), 'cluster-'));
      const env = { ...process.env, DATA_DIR: dataDir, REDIS_URL, REDIS_KEY_PREFIX: prefix, ES_URL: '', LOG_LEVEL: 'silent' };
      const file = writeNdjson(
        Array.from({ length: 30 }, (_, i) => rawRecord(i + 1)),
        'in.ndjson',
        dataDir,
      );
      await run(TSX, ['indexer/cli.ts', 'load', file], { env });
      const createKey = async (account: string, offer: string) =>
        JSON.parse((await run(TSX, ['src/admin/cli.ts', 'keys', 'create', '--account', account, '--offer', offer, '--history-days', '3650'], { env })).stdout)
          .key as string;
      key = await createKey('acme', 'sur_mesure');
      slowKey = await createKey('slow', 'region');
      port = await freePort();
      metricsPort = await freePort();
      server = spawn(TSX, ['app/main.ts'], {
        env: { ...env, API_WORKERS: '2', PORT: String(port), HOST: '127.0.0.1', SAMPLE_COUNT: '0', METRICS_PORT: String(metricsPort) },
        stdio: 'ignore',
      });
      for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
        if (
          childrenOf(primaryPid()).length === 2 &&
          (await get(port, '/health', '').then(
            (r) => r.status,
            () => 0,
          )) === 200
        )
          return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error('the cluster did not start');
    });

    after(() => {
      server?.kill('SIGTERM');
    });

    /** tsx runs node as its child: the cluster primary is the node process under the tsx wrapper. */
    function primaryPid(): number {
      return childrenOf(server!.pid!)[0] ?? -1;
    }

    it('answers from two worker processes, with counters exact across them', async () => {
      expect(childrenOf(primaryPid())).to.have.length(2);
      const answers = [];
      for (let i = 0; i < 12; i++) answers.push(await get(port, `/annonces?page_size=2&page=${(i % 6) + 1}`, key));
      expect(answers.map((a) => a.status)).to.deep.equal(Array(12).fill(200));
      // Each request was admitted once, whichever process served it: the daily request count is exact.
      expect(answers.map((a) => Number(a.headers['x-quota-requests-used']))).to.deep.equal(Array.from({ length: 12 }, (_, i) => i + 1));
      // Six distinct pages of 2: 12 distinct listings, each counted once although every page was served twice.
      expect(Number(answers.at(-1)!.headers['x-quota-items-used'])).to.equal(12);
      const distinctIds = new Set(answers.flatMap((a) => JSON.parse(a.body).items.map((item: { reference: string }) => item.reference)));
      expect(distinctIds.size).to.equal(12);
    });

    it('serves the metrics of both workers summed on METRICS_PORT', async () => {
      // The twelve searches of the test before, whichever worker answered each. A scrape fails while
      // a worker is still starting (the primary waits for every worker), as the one after succeeds.
      const searches = 'annonces_http_requests_total{route="/api/v1/annonces",method="GET",status="200"} 12';
      let text = '';
      for (const deadline = Date.now() + 30_000; Date.now() < deadline && !text.includes(searches); ) {
        text = await fetch(`http://127.0.0.1:${metricsPort}/metrics`).then(
          (r) => r.text(),
          () => '',
        );
        if (!text.includes(searches)) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(text).to.include(searches);
    });

    it('shares the rate windows: a third request in one second is refused whichever process gets it', async () => {
      // Offer region: 2 requests per second. Three connections go round-robin to the two workers, so
      // with per-process windows the third would be the second of its worker, and served.
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await get(port, '/annonces?page_size=1', slowKey)).status);
      expect(statuses).to.deep.equal([200, 200, 429]);
    });

    it('replaces a worker that dies, and answers from both processes again', async () => {
      const [victim, survivor] = childrenOf(primaryPid());
      process.kill(victim, 'SIGKILL');
      // A connection handed to the victim just before it died is lost (as with any crashed server);
      // once the primary has replaced it, every connection is answered.
      let workers: number[] = [];
      for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
        workers = childrenOf(primaryPid());
        if (workers.length === 2 && !workers.includes(victim)) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(workers, 'no worker replaced the dead one').to.have.length(2).and.include(survivor).and.not.include(victim);
      await new Promise((resolve) => setTimeout(resolve, 1_000)); // the new worker opens its stores and listens
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await get(port, '/annonces?page_size=1', key)).status);
      expect(statuses).to.deep.equal([200, 200, 200, 200]);
    });
  });
});
