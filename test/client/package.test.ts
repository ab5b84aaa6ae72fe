/**
 * The typed client as another project gets it: `npm pack` in client/ builds its JavaScript and its
 * types, the tarball is installed in a fresh project, type-checked there and run against a live API.
 * The install is offline: the client's dependencies are packed from this repository's node_modules,
 * the same package versions a registry would serve.
 */
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../support/app.js';
import { makeListings } from '../support/fixtures.js';
import { NO_RATE_WINDOWS, offersWith } from '../api/access/support/quota-app.js';

const CLIENT_DIR = path.resolve('client');
const TSC = path.resolve('node_modules/typescript/bin/tsc');

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  // The consumer runs plain Node: no loader of this repository's test run (NODE_OPTIONS) reaches it.
  const { NODE_OPTIONS: _, ...inherited } = process.env;
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...inherited, ...env } });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** The client's dependencies and theirs, as folders of node_modules. */
function dependencyFolders(packageDir: string, seen = new Set<string>()): string[] {
  const manifest = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  for (const name of Object.keys(manifest.dependencies ?? {})) {
    const folder = path.resolve('node_modules', name);
    if (seen.has(folder)) continue;
    seen.add(folder);
    dependencyFolders(folder, seen);
  }
  return [...seen];
}

/** What the installed package is asked, as a consumer writes it (types checked by tsc below). */
const CONSUMER = `
import { AnnoncesClient, QuotaError, type ClustersAnswer, type StatsAnswer } from 'annonces-api-client';

export async function main(baseUrl: string, apiKey: string): Promise<string> {
  const api = new AnnoncesClient({ baseUrl, apiKey });
  const ping = await api.ping();
  const page = await api.search({ dept: '75', page_size: 5 });
  const clusters: ClustersAnswer = (await api.clusters({ bbox: '41,-5,51,10', zoom: 5 })).data;
  const stats: StatsAnswer = (await api.stats({ dept: '75' })).data;
  let refused = '';
  try {
    await api.stats({ dept: '75', cp: '75001' });
  } catch (error) {
    refused = error instanceof QuotaError ? 'quota' : (error as { status?: number }).status === 400 ? 'bad request' : 'other';
  }
  return JSON.stringify({
    tier: ping.data.tier,
    references: page.data.items.map((a) => a.reference),
    clustersTotal: clusters.total,
    cellCounts: clusters.cells.reduce((sum, cell) => sum + cell.count, 0),
    statsCount: stats.active.count,
    refused,
  });
}
`;

describe('the typed client as an npm package', function () {
  this.timeout(180_000);
  let app: TestApp;
  let key: string;
  let project: string;

  before(async () => {
    app = await startTestApp({ listings: makeListings({ count: 300, seed: 21 }), deps: { offers: offersWith({}, NO_RATE_WINDOWS) } });
    key = await app.newKey('departement');
    const packs = mkdtempSync(path.join(tmpdir(), 'client-pack-'));
    const [packed] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', packs], CLIENT_DIR)) as { filename: string; files: { path: string }[] }[];
    expect(packed.files.map((f) => f.path)).to.include.members(['dist/index.js', 'dist/index.d.ts', 'dist/schema.d.ts']);
    project = mkdtempSync(path.join(tmpdir(), 'client-consumer-'));
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    const dependencies = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', packs, ...dependencyFolders(CLIENT_DIR)], project)) as {
      filename: string;
    }[];
    const tarballs = [packed, ...dependencies].map((p) => path.join(packs, p.filename));
    run('npm', ['install', '--offline', '--no-audit', '--no-fund', ...tarballs], project);
  });
  after(async () => {
    await app?.close();
  });

  it('type-checks a consumer against the packed types', () => {
    writeFileSync(path.join(project, 'consumer.ts'), CONSUMER);
    const tsconfig = {
      compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, outDir: 'out', types: [] },
      files: ['consumer.ts'],
    };
    writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify(tsconfig));
    run(process.execPath, [TSC, '-p', 'tsconfig.json'], project);
    expect(readFileSync(path.join(project, 'out', 'consumer.js'), 'utf8')).to.include("from 'annonces-api-client'");
  });

  it('calls a live API: ping, search, clusters and stats give what the API gives', async () => {
    const script = `import { main } from './out/consumer.js'; console.log(await main(process.argv[2], process.argv[3]));`;
    writeFileSync(path.join(project, 'call.mjs'), script);
    // Asynchronously: the API answering it runs in this process.
    const { NODE_OPTIONS: _, ...env } = process.env;
    const { stdout } = await promisify(execFile)(process.execPath, ['call.mjs', app.base, key], { cwd: project, env });
    const answer = JSON.parse(stdout);
    const search = await app.get('/annonces?dept=75&page_size=5', key);
    const clusters = await app.get('/annonces/map/clusters?bbox=41,-5,51,10&zoom=5', key);
    const stats = await app.get('/stats?dept=75', key);
    expect(answer).to.deep.equal({
      tier: 'departement',
      references: search.body.items.map((a: { reference: string }) => a.reference),
      clustersTotal: clusters.body.total,
      cellCounts: clusters.body.total,
      statsCount: stats.body.active.count,
      refused: 'bad request',
    });
    expect(answer.references.length).to.be.greaterThan(0);
    expect(answer.clustersTotal).to.be.greaterThan(0);
  });
});
