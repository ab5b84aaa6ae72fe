/** `--before DIR`: the code before a change measured beside this one, alternately (before-code.ts, alternate.ts). */
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { measureAlternated, type Side } from '../../scripts/bench/alternate.js';
import { beforeTable, openCheckout } from '../../scripts/bench/before-code.js';
import { REPO_ROOT } from '../../scripts/bench/child.js';
import { parseOptions, UsageError, type BenchOptions } from '../../scripts/bench/options.js';

describe('bench: --before', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'bench-before-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is parsed into the options, absent by default', () => {
    expect((parseOptions([], {}) as BenchOptions).before).to.equal(null);
    expect((parseOptions(['--before', '../old'], {}) as BenchOptions).before).to.equal('../old');
  });

  it('opens a checkout: its commit and the entry its npm start names', () => {
    const checkout = openCheckout(REPO_ROOT);
    expect(checkout.entry).to.equal('app/main.ts');
    expect(checkout.commit).to.equal(execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim());
  });

  it('refuses a directory that is not a usable checkout, saying why', () => {
    expect(() => openCheckout(dir)).to.throw(UsageError, /no package.json/);
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ scripts: { start: 'node server.js' } }));
    expect(() => openCheckout(dir)).to.throw(UsageError, /no node_modules/);
  });

  it('prints both codes and the change, with dashes where CPU is unknown', () => {
    const table = beforeTable([
      { name: 'map-paris', before: { rps: 40, cpuMsPerRequest: 20, errors: 0 }, after: { rps: 50, cpuMsPerRequest: 15, errors: 2 } },
      { name: 'detail', before: { rps: 1000, cpuMsPerRequest: null, errors: 0 }, after: { rps: 900, cpuMsPerRequest: 0.5, errors: 0 } },
    ]);
    const [map, detail] = table.split('\n').filter((line) => /map-paris|detail/.test(line));
    expect(map.split('|').map((c) => c.trim())).to.include.members(['40', '50', '+25 %', '-25 %', '2']);
    expect(detail.split('|').map((c) => c.trim())).to.include.members(['1 000', '900', '-10 %', '-']);
  });
});

describe('bench: two servers measured alternately', () => {
  const servers: http.Server[] = [];
  after(() => servers.forEach((s) => s.close()));

  async function side(status: number): Promise<Side> {
    const server = http.createServer((req, res) => {
      res.writeHead(req.url?.endsWith('/health') ? 200 : status, { 'content-type': 'application/json' });
      res.end('{}');
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
    return { server: { base, pid: process.pid, startupMs: 0, rss: {} as never, stop: async () => {} }, key: 'k' };
  }

  it('gives each server its own requests/s, CPU and errors', async () => {
    const [ok, failing] = [await side(200), await side(500)];
    const figures = await measureAlternated({ a: ok, b: failing, paths: ['/annonces'], connections: 2, seconds: 0.5, warmupSeconds: 0.2 });
    expect(figures.a.rps).to.be.greaterThan(0);
    expect(figures.b.rps).to.be.greaterThan(0);
    expect(figures.a.errors).to.equal(0);
    expect(figures.b.errors).to.be.greaterThan(0);
    expect(figures.a.cpuMsPerRequest).to.be.a('number');
  });
});
