/** The command lines as an operator runs them: indexer load / reindex and the admin key commands. */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { rawRecord, writeNdjson } from '../support/raw.js';
import { INDEXER_ENV, INDEXER_NODE_FLAGS } from '../../indexer/heap.js';
import { generateSample } from '../../indexer/sample/generate.js';
import { unsyncedBuildMarker } from '../../src/adapters/sqlite-listings/write/unsynced-build.js';
import Database from 'better-sqlite3';
import { cli } from '../support/cli.js';

describe('command lines', function () {
  this.timeout(60_000);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cli-'));

  it('indexer load prints its report, a second load is unchanged, rejects are written', async () => {
    const file = writeNdjson([rawRecord(1), rawRecord(2), '{broken'], 'in.ndjson', dataDir);
    const rejects = path.join(dataDir, 'rejects.ndjson');
    const first = await cli('indexer/cli.ts', ['load', file, '--rejects', rejects], dataDir);
    expect(first.code, first.stderr).to.equal(0);
    const report = JSON.parse(first.stdout);
    expect(report).to.include({ read: 3, written: 2, rejected: 1, index_operations: 2, index_operations_per_listing: 1 });
    // A first load runs in bulk mode: the report gives the write phase apart from the final build.
    expect(report.write_seconds).to.be.within(0, report.seconds);
    expect(report.peak_rss_mib_writing).to.be.within(20, report.peak_rss_mib);
    // What the load cost its process, the store's close included (indexer/process-figures.ts; Linux).
    expect(report.cpu_seconds).to.be.above(0);
    expect(report.disk_written_bytes).to.be.a('number');
    expect(JSON.parse(readFileSync(rejects, 'utf8').trim())).to.include({ line: 3, reason: 'invalid JSON' });
    const second = await cli('indexer/cli.ts', ['load', file], dataDir);
    expect(JSON.parse(second.stdout)).to.include({ written: 0, unchanged: 2 });
  });

  it('indexer reindex rebuilds the SQLite indexes', async () => {
    const result = await cli('indexer/cli.ts', ['reindex'], dataDir);
    expect(result.code, result.stderr).to.equal(0);
    expect(JSON.parse(result.stdout)).to.include({ backend: 'sqlite', listings: 2 });
  });

  it('dedup-eval measures the grouping a first build does at its end, and its quality', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'eval-'));
    const records = path.join(dir, 's.ndjson.gz');
    const labels = path.join(dir, 'l.ndjson');
    expect((await cli('indexer/sample/cli.ts', ['--count', '2000', '--out', records, '--labels', labels, '--seed', '3'], dir)).code).to.equal(0);
    const result = await cli('indexer/dedup/eval-cli.ts', [records, labels, '--compare'], dir);
    expect(result.code, result.stderr).to.equal(0);
    const output = JSON.parse(result.stdout.slice(0, result.stdout.lastIndexOf('}') + 1));
    // The stage's begin and finish reach the real stage: the load groups once at its end.
    expect(output.load_dedup.regrouped_at_end).to.be.above(100);
    expect(output.grouping_stage.extra_rows_written).to.equal(output.load_dedup.regrouped_at_end);
    expect(output.grouping_stage.cpu_seconds).to.be.above(0);
    expect(output.quality.active.precision).to.be.above(0.98);
    expect(output.quality.active.recall).to.be.above(0.9);
    // Each pair shape of the generator is measured apart, and printed.
    expect(Object.keys(output.quality.by_shape)).to.deep.equal(['classic', 'sparse', 'twin']);
    expect(output.quality.by_shape.sparse.truePairs).to.be.above(50);
    expect(output.quality.by_shape.sparse.recall).to.be.above(0.9);
    expect(output.quality.by_shape.twin.precision).to.be.above(0.98);
    expect(result.stdout).to.match(/\n {2}sparse pairs \(\d+ true, \d+ predicted\): precision /);
  });

  it('indexer load killed during a first build: the next load finishes it; after a restart of the machine, refused', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'killed-'));
    const file = writeNdjson(
      [...generateSample({ count: 4000, seed: 5 })].map((s) => s.record as Record<string, unknown>),
      'in.ndjson',
      dir,
    );
    const marker = unsyncedBuildMarker(path.join(dir, 'listings.sqlite'));
    // One process (node itself, not the tsx wrapper), killed once its build has marked the store.
    const loader = spawn(process.execPath, ['--import', 'tsx', 'indexer/cli.ts', 'load', file], {
      env: { ...process.env, DATA_DIR: dir, REDIS_URL: '', ES_URL: '' },
      stdio: 'ignore',
    });
    const exited = once(loader, 'exit');
    while (!existsSync(marker)) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 300));
    loader.kill('SIGKILL');
    expect((await exited)[1]).to.equal('SIGKILL');
    expect(JSON.parse(readFileSync(marker, 'utf8'))).to.include({ pid: loader.pid });
    // Killed on this boot: the next load finishes the build, syncs, removes the marker, and loads what is missing.
    const again = await cli('indexer/cli.ts', ['load', file], dir);
    expect(again.code, again.stderr).to.equal(0);
    expect(JSON.parse(again.stdout)).to.include({ read: 4000, rejected: 0 });
    expect(existsSync(marker)).to.equal(false);
    // A marker of an earlier boot: the machine stopped while the build had unsynced writes.
    writeFileSync(marker, JSON.stringify({ boot_id: 'a-boot-before-this-one', pid: 1, started_at: '2026-11-24T20:00:00.000Z' }));
    const refused = await cli('indexer/cli.ts', ['load', file], dir);
    expect(refused.code).to.equal(1);
    expect(refused.stderr).to.match(/first build \(started 2026-11-24T20:00:00.000Z\) was writing without syncing to disk when the machine restarted/);
  });

  it('indexer load --group-in-worker: a first build grouped in a worker thread gives the groups and feed positions of the default', async () => {
    const records = [...generateSample({ count: 3000, seed: 8 })].map((s) => s.record as Record<string, unknown>);
    const stores: unknown[][] = [];
    for (const flags of [[], ['--group-in-worker']]) {
      const dir = mkdtempSync(path.join(tmpdir(), 'group-worker-cli-'));
      const result = await cli('indexer/cli.ts', ['load', writeNdjson(records, 'in.ndjson', dir), ...flags], dir);
      expect(result.code, result.stderr).to.equal(0);
      const report = JSON.parse(result.stdout);
      expect(report.regrouped_at_end).to.be.above(1000);
      // Each record written once, then each grouped listing rewritten with its group at the end.
      expect(report.index_operations).to.equal(report.written + report.regrouped_at_end);
      expect(report.index_operations_per_listing).to.equal(Math.round((report.index_operations / report.written) * 1000) / 1000);
      expect(report.grouped_in_worker).to.equal(flags.length > 0);
      const db = new Database(path.join(dir, 'listings.sqlite'), { readonly: true });
      // The wall clock differs between the two loads: only the time columns may.
      stores.push(
        db
          .prepare(`SELECT l.id, l.change_seq, l.dedup_key, l.sites_ahead, l.vis, l.map_json, t.doc, a.public_json
        FROM listings l JOIN listing_texts t ON t.rowid = l.rowid JOIN listing_annonces a ON a.rowid = l.rowid ORDER BY l.rowid`)
          .all(),
      );
      db.close();
    }
    expect(stores[0]).to.have.length(3000);
    expect(stores[1]).to.deep.equal(stores[0]);
  });

  it('indexer load stores sparse real-shaped records, counts misfit values, groups them; dedup explain says why', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sparse-'));
    const seloger = {
      source: 'seloger',
      reference: '262973311',
      url: 'https://www.seloger.com/annonces/achat/appartement/toulon-83/brunet/262973311.htm',
      collected_at: '2026-11-10T16:37:09Z',
      transaction: 'vente',
      price: '210000.0',
      surface: '65.0',
      rooms: '4.0',
      city: '83100',
      images: ['https://img.example/1.jpg'],
    };
    // Leboncoin-like: the city name only (Toulon has three postal codes), blurred coordinates, no description.
    const leboncoin = {
      source: 'leboncoin',
      reference: '3100000001',
      url: 'https://www.leboncoin.fr/ad/ventes_immobilieres/3100000001',
      collected_at: '2026-11-11T08:00:00Z',
      title: 'Appartement 4 pièces 65 m²',
      price: 210000,
      surface: 65,
      rooms: 4,
      city: 'Toulon',
      latitude: 43.1221,
      longitude: 5.9312,
      bedrooms: '55,8 m²',
      images: ['https://img.example/2.jpg'],
    };
    // The same agency's other flat in the building, at the same price, 6 m² larger.
    const other = { ...seloger, reference: '262973312', url: seloger.url.replace('262973311', '262973312'), surface: '71.0' };
    // An optional field of the wrong shape is dropped and counted; a record without a URL is unusable.
    const oddShapes = { ...seloger, source: 'pap', reference: 'P-1', price: { amount: 210000 }, title: ['Appartement'] };
    const noUrl = { ...seloger, reference: '262973313', url: undefined };
    const rejects = path.join(dir, 'rejects.ndjson');
    const result = await cli(
      'indexer/cli.ts',
      ['load', writeNdjson([seloger, leboncoin, other, oddShapes, noUrl], 'in.ndjson', dir), '--rejects', rejects],
      dir,
    );
    expect(result.code, result.stderr).to.equal(0);
    const report = JSON.parse(result.stdout);
    expect(report).to.include({ read: 5, written: 4, rejected: 1, groups_formed: 1 });
    expect(report.nulled_fields).to.deep.equal({ bedrooms: 1, price: 1, title: 1 });
    expect(JSON.parse(readFileSync(rejects, 'utf8'))).to.include({ line: 5, field: 'url' });

    const match = await cli('indexer/cli.ts', ['dedup', 'explain', 'seloger/262973311', 'leboncoin/3100000001'], dir);
    expect(match.code, match.stderr).to.equal(0);
    expect(match.stdout).to.contain('block: vente|appartement|c83137 / vente|appartement|c83137: the same');
    expect(match.stdout)
      .to.match(/evidence surface: 65 \/ 65: \+1\n/)
      .and.to.match(/evidence distance: .*: no evidence/);
    expect(match.stdout)
      .to.match(/score 2\.5 against 2\.5: a match/)
      .and.to.match(/: one group$/m);
    const distinct = await cli('indexer/cli.ts', ['dedup', 'explain', 'seloger/262973311', 'seloger/262973312'], dir);
    expect(distinct.stdout)
      .to.contain('limit site: seloger / seloger: OUTSIDE')
      .and.to.match(/not one group$/m);
    const unknown = await cli('indexer/cli.ts', ['dedup', 'explain', 'seloger/262973311', 'pap/1'], dir);
    expect(unknown.code).to.equal(1);
    expect(unknown.stderr).to.contain('no listing pap:1');
  });

  it('indexer without a command exits 2 with the usage', async () => {
    const result = await cli('indexer/cli.ts', [], dataDir);
    expect(result.code).to.equal(2);
    expect(result.stderr).to.match(/usage/);
  });

  it('indexer load with an unknown option exits 2 naming it, with the usage', async () => {
    const result = await cli('indexer/cli.ts', ['load', 'in.ndjson', '--group-in-workers'], dataDir);
    expect(result.code).to.equal(2);
    expect(result.stderr)
      .to.match(/Unknown option '--group-in-workers'/)
      .and.to.match(/usage: .*--group-in-worker\]/);
    expect(result.stderr).not.to.match(/\n\s+at /);
  });

  it('admin keys create / revoke and accounts list; the access date stays with the account', async () => {
    const created = await cli(
      'src/admin/cli.ts',
      ['keys', 'create', '--account', 'acme', '--offer', 'departement', '--created-at', '2026-01-15', '--history-days', '10'],
      dataDir,
    );
    expect(created.code, created.stderr).to.equal(0);
    const first = JSON.parse(created.stdout);
    expect(first).to.include({ account: 'acme', offer: 'departement', annonces_from: '2026-01-05' });
    expect(first.key).to.match(/^ak_/);
    const revoked = await cli('src/admin/cli.ts', ['keys', 'revoke', first.key], dataDir);
    expect(JSON.parse(revoked.stdout)).to.deep.equal({ revoked: 1 });
    const again = JSON.parse((await cli('src/admin/cli.ts', ['keys', 'create', '--account', 'acme', '--offer', 'region'], dataDir)).stdout);
    expect(again).to.include({ account: 'acme', offer: 'region', annonces_from: '2026-01-05' });
    const listed = JSON.parse((await cli('src/admin/cli.ts', ['accounts', 'list'], dataDir)).stdout);
    const acme = listed.find((a: { id: string }) => a.id === 'acme');
    expect(acme.keys.map((k: { status: string }) => k.status)).to.deep.equal(['revoked', 'active']);
    expect(JSON.stringify(listed)).not.to.contain(first.key);
    const access = readFileSync(path.join(dataDir, 'access.sqlite'));
    expect(access.includes(Buffer.from(first.key))).to.equal(false);
    const bad = await cli('src/admin/cli.ts', ['keys', 'create', '--account', 'acme', '--offer', 'gold'], dataDir);
    expect(bad.code).to.equal(2);
  });

  it('npm run indexer starts node with the memory bounds of indexer/heap.ts', () => {
    // The benchmark builds its catalogue with heap.ts's values; package.json must repeat them, or
    // an operator's load runs with other bounds than the measured one.
    const script = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts.indexer;
    const words = script.split(/\s+/);
    for (const [name, value] of Object.entries(INDEXER_ENV)) expect(words).to.include(`${name}=${value}`);
    for (const flag of INDEXER_NODE_FLAGS) expect(words).to.include(flag);
    expect(words.indexOf('node')).to.be.greaterThan(words.indexOf(`${Object.keys(INDEXER_ENV)[0]}=${Object.values(INDEXER_ENV)[0]}`));
  });
});
