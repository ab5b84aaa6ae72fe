/**
 * `npm run indexer -- load --snapshot`, as the nightly job runs it: listings missing from a site's
 * complete listings are counted, then withdrawn with the reason `absent`, and come back when seen
 * again; the guards keep a damaged or partial snapshot from withdrawing anything.
 */
import { expect } from 'chai';
import { appendFileSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cli } from '../support/cli.js';
import { writeNdjson } from '../support/raw.js';
import { describeEngines, openEngineStore, type Engine } from '../support/engines.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { deleteAliasIndices, elasticsearchConnection } from '../support/elasticsearch.js';
import { EXIT } from '../../indexer/exit-codes.js';
import type { ListingStore } from '../../src/core/ports/listing-store.js';
import type { StoredListing } from '../../src/core/model/stored.js';
import { ElasticsearchListingStore } from '../../src/adapters/elasticsearch/listing-store.js';
import { SqliteListingStore } from '../../src/adapters/sqlite-listings/listing-store.js';
import { createElasticsearchClient } from '../../src/adapters/elasticsearch/client.js';
import { ensureIndex } from '../../src/adapters/elasticsearch/aliases.js';
import { loadIndexDefinition } from '../../src/adapters/elasticsearch/index-definition.js';

const PLACES = { '75': ['Paris', '75011'], '92': ['Boulogne-Billancourt', '92100'] } as const;

/** A collector's record of site listing `reference`, in Paris (75) or Boulogne (92), seen on `day` of November. */
function record(source: string, reference: string, dept: keyof typeof PLACES, day: number, extra: Record<string, unknown> = {}) {
  const [city, postal_code] = PLACES[dept];
  return {
    source,
    reference,
    url: `https://www.${source}.example/${reference}`,
    collected_at: `2026-11-${String(day).padStart(2, '0')}T03:00:00Z`,
    title: `Appartement ${reference}`,
    type: 'appartement',
    transaction: 'vente',
    price: `${300 + reference.length} 000 €`,
    surface: `${40 + Number(reference.replace(/\D/g, '') || 0)} m²`,
    city,
    postal_code,
    images: [`https://img.example/${source}/${reference}.jpg`],
    ...extra,
  };
}

/** seloger S0..S9 in 75, seloger B0..B3 in 92, leboncoin L0..L3 in 75. */
const PARIS = Array.from({ length: 10 }, (_, i) => `S${i}`);
const BOULOGNE = Array.from({ length: 4 }, (_, i) => `B${i}`);
const OTHER_SITE = Array.from({ length: 4 }, (_, i) => `L${i}`);

function night(day: number, options: { without?: string[]; paris?: boolean; boulogne?: boolean; otherSite?: boolean } = {}): unknown[] {
  const skip = new Set(options.without ?? []);
  return [
    ...(options.paris === false ? [] : PARIS.filter((r) => !skip.has(r)).map((r) => record('seloger', r, '75', day))),
    ...(options.boulogne === false ? [] : BOULOGNE.filter((r) => !skip.has(r)).map((r) => record('seloger', r, '92', day))),
    ...(options.otherSite === false ? [] : OTHER_SITE.map((r) => record('leboncoin', r, '75', day))),
  ];
}

describeEngines('indexer load --snapshot', function (engine: Engine) {
  this.timeout(240_000);
  let dir: string;
  let store: ListingStore | undefined;
  let env: NodeJS.ProcessEnv;

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'snapshot-'));
    store = await openEngineStore(engine, 'snapshot');
    env = store instanceof ElasticsearchListingStore ? { ES_URL: process.env.ES_URL, ES_INDEX_ALIAS: store.alias } : {};
  });
  afterEach(async () => {
    await store?.close();
  });

  let fileCount = 0;
  /** One load over the CLI: its exit status, its report (null when none was printed) and its stderr. */
  async function load(records: unknown[], ...args: string[]) {
    const file = writeNdjson(records, `night-${++fileCount}.ndjson`, dir);
    return loadFile(file, ...args);
  }
  async function loadFile(file: string, ...args: string[]) {
    const result = await cli('indexer/cli.ts', ['load', file, ...args], dir, env);
    const last = result.stdout.trim().split('\n').at(-1);
    return { code: result.code, stderr: result.stderr, report: last ? JSON.parse(last) : null };
  }

  /** The stored listings of seloger (or `source`) references, as the indexer left them. */
  async function stored(references: string[], source = 'seloger'): Promise<Map<string, StoredListing>> {
    const ids = references.map((r) => `${source}:${r}`);
    if (store) return keyed(await store.getMany(ids));
    const sqlite = new SqliteListingStore(path.join(dir, 'listings.sqlite'));
    try {
      return keyed(await sqlite.getMany(ids));
    } finally {
      await sqlite.close();
    }
  }
  const keyed = (listings: Map<string, StoredListing>) => new Map([...listings].map(([id, listing]) => [id.slice(id.indexOf(':') + 1), listing]));

  /** The API over the store the CLI writes (a client of its own on Elasticsearch, so closing the app leaves the test's index). */
  async function api(): Promise<TestApp> {
    if (engine === 'sqlite') return startTestApp({ env: { DATA_DIR: dir } });
    const client = createElasticsearchClient(elasticsearchConnection()!);
    return startTestApp({ deps: { listings: new ElasticsearchListingStore(client, { alias: (store as ElasticsearchListingStore).alias }) } });
  }

  /** A flow followed from `cursor` (null: its start) until it is up to date: its items and where to resume. */
  async function follow(app: TestApp, key: string, route: string, cursor: string | null = null): Promise<{ items: any[]; cursor: string }> {
    const items: any[] = [];
    for (;;) {
      const { status, body } = await app.get(`${route}?page_size=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, key);
      expect(status, JSON.stringify(body)).to.equal(200);
      items.push(...body.items);
      cursor = body.next_cursor as string;
      if (body.items.length === 0) return { items, cursor };
    }
  }
  const everything = async (app: TestApp, key: string, route: string) => (await follow(app, key, route)).items;

  it('absent from one snapshot stays active, from two is withdrawn with the reason absent (API), and seen again is active again', async () => {
    expect((await load(night(1), '--snapshot', 'seloger')).code).to.equal(EXIT.ok);

    const second = await load(night(2, { without: ['S3'] }), '--snapshot', 'seloger');
    expect(second.code, second.stderr).to.equal(EXIT.ok);
    expect(second.report.snapshot).to.deep.include({
      site: 'seloger',
      departments: null,
      active: 14,
      held: 13,
      counted_absent: 1,
      counted_before: 0,
      swept: 0,
      not_swept: null,
    });
    let s3 = (await stored(['S3'])).get('S3')!;
    expect(s3.status).to.equal('active');
    expect(s3).to.include({ absent_loads: 1, absent_at: Date.parse('2026-11-02T03:00:00Z') });

    // The same night loaded again (a rerun): its pass counted S3 already.
    const again = await loadFile(path.join(dir, `night-${fileCount}.ndjson`), '--snapshot', 'seloger');
    expect(again.report.snapshot).to.deep.include({ counted_absent: 0, counted_before: 1, swept: 0 });
    expect((await stored(['S3'])).get('S3')).to.include({ status: 'active', absent_loads: 1 });

    const third = await load(night(3, { without: ['S3'] }), '--snapshot', 'seloger');
    expect(third.code, third.stderr).to.equal(EXIT.ok);
    expect(third.report.snapshot).to.deep.include({ active: 14, held: 13, counted_absent: 1, swept: 1, absent_loads: 2, min_ratio: 0.8, not_swept: null });
    s3 = (await stored(['S3'])).get('S3')!;
    expect(s3.status).to.equal('retiree');
    expect(s3.absent_loads).to.equal(2);

    const app = await api();
    try {
      const key = await app.newKey('sur_mesure');
      const withdrawn = await everything(app, key, '/annonces/retirees');
      expect(withdrawn.map((item) => [item.source, item.reference, item.reason])).to.deep.equal([['seloger', 'S3', 'absent']]);
      // Left the market at the pass that missed it the second time.
      expect(withdrawn[0].withdrawn_at).to.equal('2026-11-03T03:00:00.000Z');
      const feed = await follow(app, key, '/annonces/feed');
      expect(feed.items.map((item) => item.reference)).not.to.include('S3');
      expect(feed.items).to.have.length(17);

      // Seen again: active, its count cleared, and delivered by the feed again.
      const fourth = await load(night(4), '--snapshot', 'seloger');
      expect(fourth.code, fourth.stderr).to.equal(EXIT.ok);
      expect(fourth.report.snapshot).to.deep.include({ active: 13, held: 13, counted_absent: 0, swept: 0 });
      s3 = (await stored(['S3'])).get('S3')!;
      expect(s3.status).to.equal('active');
      expect(s3.absent_loads).to.equal(undefined);
      // A mirror following the feed from where it stood learns that S3 is back (the API's clock past the load).
      app.clock.now = Date.now() + 1000;
      const back = (await follow(app, key, '/annonces/feed', feed.cursor)).items.filter((item) => item.reference === 'S3');
      expect(back).to.have.length(1);
      expect(back[0].updated_at).to.equal('2026-11-04T03:00:00.000Z');
    } finally {
      await app.close();
    }
  });

  it('a department scope, a listing named by a refused line or by a status record: only the truly absent of the scope are withdrawn', async () => {
    expect((await load(night(1))).code).to.equal(EXIT.ok);
    // Paris only (Boulogne and the other site are out of the files); S5 missing; S3 only on a line
    // that is refused (no collection time); S4 only as a record saying it is sold.
    const paris = (day: number) => [
      ...night(day, { without: ['S3', 'S4', 'S5'], boulogne: false, otherSite: false }),
      { source: 'seloger', reference: 'S3', url: 'https://www.seloger.example/S3' },
      record('seloger', 'S4', '75', day, { status: 'vendu' }),
    ];
    for (const day of [2, 3]) {
      const result = await load(paris(day), '--snapshot', 'seloger:75');
      expect(result.code, result.stderr).to.equal(EXIT.ok);
      expect(result.report.rejected).to.equal(1);
      expect(result.report.snapshot).to.deep.include({ departments: ['75'], active: day === 2 ? 10 : 9, counted_absent: 1, swept: day === 2 ? 0 : 1 });
    }
    const seloger = await stored([...PARIS, ...BOULOGNE]);
    expect(seloger.get('S5')).to.include({ status: 'retiree', absent_loads: 2 });
    expect(seloger.get('S3')).to.include({ status: 'active' });
    expect(seloger.get('S3')!.absent_loads).to.equal(undefined);
    expect(seloger.get('S4')).to.include({ status: 'vendue' });
    expect(seloger.get('S4')!.absent_loads).to.equal(undefined);
    for (const reference of BOULOGNE) {
      expect(seloger.get(reference)!.status, reference).to.equal('active');
      expect(seloger.get(reference)!.absent_loads, reference).to.equal(undefined);
    }
    for (const listing of (await stored(OTHER_SITE, 'leboncoin')).values()) expect(listing.status).to.equal('active');

    const app = await api();
    try {
      const key = await app.newKey('sur_mesure');
      const reasons = (await everything(app, key, '/annonces/retirees')).map((item) => `${item.reference}:${item.reason}`);
      expect(reasons.sort()).to.deep.equal(['S4:vendue', 'S5:absent']);
    } finally {
      await app.close();
    }
  });

  it('guards: a damaged input (exit 4) or a snapshot below --min-ratio counts nothing; a record of the listing clears its count', async () => {
    expect((await load(night(1))).code).to.equal(EXIT.ok);
    // Twice a snapshot missing S5 whose file is cut in its last line.
    for (const day of [2, 3]) {
      const file = writeNdjson(night(day, { without: ['S5'] }), `cut-${day}.ndjson`, dir);
      appendFileSync(file, '{"source":"seloger","refer');
      const result = await loadFile(file, '--snapshot', 'seloger');
      expect(result.code, result.stderr).to.equal(EXIT.damagedInput);
      expect(result.report.snapshot).to.deep.include({ counted_absent: 0, swept: 0 });
      expect(result.report.snapshot.not_swept).to.match(/an input was damaged/);
      expect(result.stderr).to.match(/snapshot of seloger: nothing withdrawn: an input was damaged/);
    }
    // A snapshot holding 7 of the 14 listings of the site: a warning, nothing counted.
    const partial = await load(night(4, { without: ['S5', 'S6', 'S7', 'B0', 'B1', 'B2', 'B3'] }), '--snapshot', 'seloger');
    expect(partial.code, partial.stderr).to.equal(EXIT.ok);
    expect(partial.report.snapshot).to.deep.include({ active: 14, held: 7, held_ratio: 0.5, counted_absent: 0, swept: 0 });
    expect(partial.stderr).to.match(/nothing withdrawn: the snapshot holds 7 of the scope's 14 active listings \(0\.5\), fewer than --min-ratio 0\.8/);
    let s5 = (await stored(['S5'])).get('S5')!;
    expect(s5.status).to.equal('active');
    expect(s5.absent_loads).to.equal(undefined);

    // The same partial snapshot passes a lower ratio: S5 and the six others counted once, none withdrawn.
    const lowered = await load(night(5, { without: ['S5', 'S6', 'S7', 'B0', 'B1', 'B2', 'B3'] }), '--snapshot', 'seloger', '--min-ratio', '0.5');
    expect(lowered.report.snapshot).to.deep.include({ counted_absent: 7, swept: 0, not_swept: null });
    expect((await stored(['S5'])).get('S5')!.absent_loads).to.equal(1);
    // A load without --snapshot whose record of S5 is the one stored already (same pass, same content) clears its count.
    expect((await load([record('seloger', 'S5', '75', 1)])).code).to.equal(EXIT.ok);
    s5 = (await stored(['S5'])).get('S5')!;
    expect(s5.status).to.equal('active');
    expect(s5.absent_loads).to.equal(undefined);
    expect((await stored(['S6'])).get('S6')!.absent_loads).to.equal(1);
  });

  if (engine === 'elasticsearch') {
    it('an index of an older mapping, which cannot keep the counts: exit 5 before anything is written', async () => {
      const definition = loadIndexDefinition();
      const { absent_loads: _, ...properties } = definition.mappings.properties!;
      const older = { ...definition, mappings: { ...definition.mappings, properties, _meta: { mapping_version: 3 } } };
      const alias = `${(store as ElasticsearchListingStore).alias}-older`;
      const client = (store as ElasticsearchListingStore).client;
      await ensureIndex(client, alias, older);
      try {
        const result = await cli('indexer/cli.ts', ['load', writeNdjson(night(1), 'n.ndjson', dir), '--snapshot', 'seloger'], dir, {
          ...env,
          ES_INDEX_ALIAS: alias,
        });
        expect(result.code).to.equal(EXIT.misconfigured);
        expect(result.stderr)
          .to.match(/cannot keep the absence counts of a snapshot load/)
          .and.to.match(/npm run indexer -- reindex/);
        await client.indices.refresh({ index: alias });
        expect((await client.count({ index: alias })).count).to.equal(0);
      } finally {
        await deleteAliasIndices(client, alias);
      }
    });
  }
});

describe('indexer load --snapshot: usage errors', function () {
  this.timeout(120_000);

  it('an unknown site, an empty scope, a bad ratio, an option without --snapshot: exit 2 naming the option, the store untouched', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'snapshot-usage-'));
    const file = writeNdjson(night(1), 'n.ndjson', dir);
    const cases: [string[], RegExp][] = [
      [['--snapshot', 'selogerr'], /--snapshot: unknown site "selogerr"/],
      [['--snapshot', 'seloger:'], /--snapshot: an empty department in "seloger:"/],
      [['--snapshot', 'seloger', '--min-ratio', '1.2'], /--min-ratio takes a number above 0 and at most 1, got "1.2"/],
      [['--absent-loads', '3'], /--absent-loads is for a snapshot load: it needs --snapshot/],
    ];
    const results = await Promise.all(cases.map(([args]) => cli('indexer/cli.ts', ['load', file, ...args], dir)));
    results.forEach((result, i) => {
      expect(result.code, cases[i][0].join(' ')).to.equal(EXIT.usage);
      expect(result.stderr)
        .to.match(cases[i][1])
        .and.to.match(/usage: npm run indexer -- load/);
      expect(result.stdout).to.equal('');
    });
    // Refused before the store was opened: not even created.
    expect(existsSync(path.join(dir, 'listings.sqlite'))).to.equal(false);
  });
});
