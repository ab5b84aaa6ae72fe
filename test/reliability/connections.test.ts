/**
 * 200 concurrent connections against the real app for a bounded time: every answer is a 200 or a
 * documented 429 (a key of the free offer is among them, so its rate windows refuse), no connection
 * fails, and the heap comes back near where it started once the connections are gone.
 */
import { expect } from 'chai';
import http from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { startTestApp, type TestApp } from '../support/app.js';
import { makeListings } from '../support/fixtures.js';
import { recordReliability } from '../support/reliability-output.js';

const CONNECTIONS = 200;
/** How long the connections keep sending (bounds the test's time; nothing is asserted about it). */
const SECONDS = Number(process.env.CONNECTIONS_SECONDS ?? 4);
const RATE_LIMIT_CODES = ['RATE_LIMIT_PER_SEC', 'RATE_LIMIT_PER_MIN', 'RATE_LIMIT_PER_DAY'];

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapAfterGc = (): number => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

describe(`${CONNECTIONS} concurrent connections`, function () {
  this.timeout(120_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ listings: makeListings({ count: 500, seed: 9 }) });
  });
  after(async () => {
    await app?.close();
  });

  it('answer 200 or a documented 429, no connection error, and the heap comes back', async () => {
    const paid = await app.newKey('sur_mesure');
    const free = await app.newKey('decouverte');
    const url = new URL(app.base);
    const paths = [
      '/annonces?page_size=25',
      '/annonces?q=appartement&sort=price_asc',
      '/annonces/feed?page_size=50',
      '/annonces/map?bbox=41,-5,51,10',
      '/annonces/retirees',
      '/ptz/zone?cp=69003',
    ];
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
    const get = (path: string, key: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const request = http.get({ host: url.hostname, port: url.port, path: url.pathname + path, agent, headers: { 'X-Api-Key': key } }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (c: Buffer) => chunks.push(c));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
          response.on('error', reject);
        });
        request.on('error', reject);
      });
    // Warm up (first statements, caches), then the heap before.
    for (const path of paths) expect((await get(path, paid)).status).to.equal(200);
    const heapBefore = heapAfterGc();

    const statuses = new Map<string, number>();
    const unexpected: string[] = [];
    let errors = 0;
    const stopAt = Date.now() + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async (_, connection) => {
        for (let i = 0; Date.now() < stopAt; i++) {
          // One connection in ten uses the free key, whose rate windows refuse most of its requests
          // (on PTZ lookups, which count no listing: its monthly 50 would otherwise end in 402s).
          const free10 = connection % 10 === 0;
          try {
            const { status, body } = await get(free10 ? '/ptz/zone?cp=69003' : paths[(connection + i) % paths.length], free10 ? free : paid);
            const code = status === 200 ? '' : ((JSON.parse(body) as { code?: string }).code ?? '');
            statuses.set(`${status}${code ? ` ${code}` : ''}`, (statuses.get(`${status}${code ? ` ${code}` : ''}`) ?? 0) + 1);
            if (status !== 200 && !(status === 429 && RATE_LIMIT_CODES.includes(code))) unexpected.push(`${status} ${body.slice(0, 200)}`);
          } catch (error) {
            errors++;
            unexpected.push(String(error));
          }
        }
      }),
    );
    agent.destroy();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const heapAfter = heapAfterGc();
    const total = [...statuses.values()].reduce((a, b) => a + b, 0);
    const mib = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;
    recordReliability('connections', {
      title: `${CONNECTIONS} concurrent keep-alive connections for ${SECONDS} s (search, full text, feed, map, withdrawn, PTZ; one connection in ten on the free offer, on PTZ)`,
      test: 'test/reliability/connections.test.ts',
      cases: total,
      unit: 'requests',
      result: `${unexpected.length} answers other than 200 or a documented 429, ${errors} connection errors; heap after GC ${mib(heapBefore)} MiB before, ${mib(heapAfter)} MiB after`,
      details: { by_status: Object.fromEntries(statuses), heap_mib_before: mib(heapBefore), heap_mib_after: mib(heapAfter) },
    });
    expect(unexpected.slice(0, 5)).to.deep.equal([]);
    expect(statuses.get('200')).to.be.above(CONNECTIONS);
    expect([...statuses.keys()].some((s) => s.startsWith('429'))).to.equal(true);
    // Back near its start: what the connections held is garbage once they are gone.
    expect(mib(heapAfter)).to.be.below(mib(heapBefore) * 1.25 + 8);
  });
});
