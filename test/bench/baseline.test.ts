/** The bare-server baseline (scripts/bench/baseline.ts): the API's answers replayed by a bare node:http child. */
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { measureBare } from '../../scripts/bench/baseline.js';

describe('bench: bare node:http baseline', function () {
  this.timeout(60_000);
  let api: Server;
  let base: string;
  const seen: string[] = [];

  before(async () => {
    // Stands in for the API: answers with the key only, a body per path, one path refused.
    api = createServer((req, res) => {
      seen.push(`${req.headers['x-api-key']} ${req.headers['accept-encoding']} ${req.url}`);
      if (req.url?.endsWith('/refused')) return void res.writeHead(402, { 'content-type': 'application/json' }).end('{"code":"ITEMS_QUOTA"}');
      res
        .writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'x-quota-items-used': '3' })
        .end(JSON.stringify({ path: req.url, pad: 'x'.repeat(2000) }));
    });
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(api.address() as AddressInfo).port}/api/v1`;
  });
  after(() => {
    api.close();
  });

  it("records the API's plain answers with the key, then measures a bare server replaying them", async () => {
    const figures = await measureBare({ base, key: 'k1', paths: ['/a?x=1', '/b'], connections: 2, singleSeconds: 0.5, seconds: 0.5 });
    expect(seen.slice(0, 2)).to.deep.equal(['k1 identity /api/v1/a?x=1', 'k1 identity /api/v1/b']);
    // Only the recording reached the API: the loads went to the bare server.
    expect(seen).to.have.length(2);
    expect(figures.paths).to.equal(2);
    expect(figures.singleP50).to.be.above(0);
    expect(figures.rps).to.be.above(0);
    expect(figures.p50).to.be.above(0);
  });

  it('refuses to report a baseline of error answers', async () => {
    let failure: unknown = null;
    await measureBare({ base, key: 'k1', paths: ['/refused'], connections: 1, singleSeconds: 0.3, seconds: 0.3 }).catch((error: unknown) => {
      failure = error;
    });
    expect(String(failure)).to.match(/bare server answered 402/);
  });
});
