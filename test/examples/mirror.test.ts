/**
 * examples/mirror.ts run as a user runs it (a child process, `--once` per round) against a live API
 * while the real indexer writes: a first load, a load with new listings, price changes and listings
 * leaving the market (and one coming back), then a restart of the API with a new CURSOR_SECRET,
 * which refuses the saved cursors. After each round the copy equals the catalogue, listing by
 * listing. The offer allows 3 requests a second, so the mirror meets 429s and waits them out.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../support/app.js';
import { rawRecord, writeNdjson } from '../support/raw.js';
import { offersWith } from '../api/access/support/quota-app.js';
import { runLoad } from '../../indexer/load.js';
import { loadSites } from '../../src/core/model/sites.js';
import { loadCommunes } from '../../src/core/refdata/communes.js';
import type { RoundReport } from '../../examples/mirror.js';

const MIRROR = path.resolve('examples/mirror.ts');
const OFFERS = offersWith({ plateforme: { perSecond: 3, perMinute: 100_000 } });

describe('examples/mirror.ts against a live API', function () {
  this.timeout(180_000);
  const sites = loadSites();
  const communes = loadCommunes();
  const mirrorFile = path.join(mkdtempSync(path.join(tmpdir(), 'mirror-')), 'mirror.sqlite');
  let app: TestApp;
  let key: string;
  let loadClock = Date.parse('2026-11-10T00:00:00Z');

  async function start(env: Record<string, string>): Promise<TestApp> {
    const started = await startTestApp({ env, deps: { offers: OFFERS } });
    started.clock.now = Date.parse('2026-11-20T00:00:00Z');
    return started;
  }

  async function load(records: unknown[]) {
    loadClock += 1000;
    await runLoad({ files: [writeNdjson(records)], store: app.service.listingStore, sites, communes, now: () => loadClock });
  }

  /** One round of the mirror, in a child process (asynchronously: the API answering it runs here). */
  async function mirrorOnce(): Promise<RoundReport> {
    const { NODE_OPTIONS: _, ...env } = process.env;
    const args = ['--import', 'tsx', MIRROR, '--base', app.base, '--key', key, '--file', mirrorFile, '--once', '--page-size', '7'];
    const { stdout } = await promisify(execFile)(process.execPath, args, { env });
    return JSON.parse(stdout.trim().split('\n').pop()!) as RoundReport;
  }

  /** Every active site listing, from /annonces?dedup=0 (every record here has a photo). */
  async function catalogue(): Promise<Map<string, unknown>> {
    const listings = new Map<string, unknown>();
    let cursor: string | null = null;
    do {
      app.clock.now += 1000; // past the per-second window
      const { status, body } = await app.get(`/annonces?dedup=0&page_size=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, key);
      expect(status, JSON.stringify(body)).to.equal(200);
      for (const item of body.items) listings.set(`${item.source}:${item.reference}`, item);
      cursor = body.has_more ? body.next_cursor : null;
    } while (cursor);
    return listings;
  }

  function copy(): Map<string, unknown> {
    const db = new Database(mirrorFile, { readonly: true });
    try {
      const rows = db.prepare('SELECT id, annonce FROM listings').all() as { id: string; annonce: string }[];
      return new Map(rows.map((row) => [row.id, JSON.parse(row.annonce)]));
    } finally {
      db.close();
    }
  }

  async function expectCopyEqualsCatalogue(): Promise<number> {
    await new Promise((resolve) => setTimeout(resolve, 1100)); // a fresh per-second window for the check
    const [mirrored, served] = [copy(), await catalogue()];
    expect([...mirrored.keys()].sort()).to.deep.equal([...served.keys()].sort());
    for (const [id, annonce] of served) expect(mirrored.get(id), id).to.deep.equal(annonce);
    return served.size;
  }

  before(async () => {
    app = await start({ CURSOR_SECRET: 'first secret' });
    key = await app.newKey('plateforme');
  });
  after(async () => {
    await app?.close();
  });

  it('copies a first load, waiting out the 429s', async () => {
    await load(Array.from({ length: 40 }, (_, i) => rawRecord(i)));
    const report = await mirrorOnce();
    expect(report).to.include({ upserted: 40, deleted: 0, listings: 40 });
    expect(report.restarted).to.deep.equal([]);
    expect(report.waits, 'the mirror met no 429: the test no longer exercises the waits').to.be.greaterThan(0);
    expect(await expectCopyEqualsCatalogue()).to.equal(40);
  });

  it('resumes from its saved cursors through new listings, price changes and listings leaving', async () => {
    await load([
      ...Array.from({ length: 8 }, (_, i) => rawRecord(40 + i, { collected_at: '2026-11-02T10:00:00Z' })),
      ...Array.from({ length: 5 }, (_, i) => rawRecord(i, { collected_at: '2026-11-02T10:00:00Z', price: `${500 + i} 000 €` })),
      rawRecord(20, { collected_at: '2026-11-02T10:00:00Z', status: 'vendue' }),
      rawRecord(21, { collected_at: '2026-11-02T10:00:00Z', status: 'retirée' }),
      rawRecord(22, { collected_at: '2026-11-02T10:00:00Z', status: 'Sous compromis' }),
    ]);
    const report = await mirrorOnce();
    // Only the changes come again: the cursors were resumed, not restarted.
    expect(report).to.include({ upserted: 13, deleted: 3, listings: 45 });
    expect(report.restarted).to.deep.equal([]);
    expect(await expectCopyEqualsCatalogue()).to.equal(45);
  });

  it('after a restart with a new CURSOR_SECRET, starts both flows again and ends equal to the catalogue', async () => {
    await app.close();
    app = await start({ DATA_DIR: app.dataDir, CURSOR_SECRET: 'second secret' });
    await load([rawRecord(21, { collected_at: '2026-11-03T10:00:00Z' }), rawRecord(30, { collected_at: '2026-11-03T10:00:00Z', status: 'archivée' })]);
    const report = await mirrorOnce();
    expect(report.restarted).to.deep.equal(['feed', 'withdrawn']);
    expect(report.listings).to.equal(45);
    expect(await expectCopyEqualsCatalogue()).to.equal(45);
  });
});
