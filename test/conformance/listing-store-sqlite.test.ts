import { expect } from 'chai';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { SqliteListingStore, type SqliteListingStoreOptions } from '../../src/adapters/sqlite-listings/listing-store.js';
import { BLOCK_CANDIDATES_SQL } from '../../src/adapters/sqlite-listings/listing-reads.js';
import { annonceJson, mapPointJson, presentAnnonce, presentMapPoint } from '../../src/core/model/present.js';
import type { MapPointListing, StoredListing } from '../../src/core/model/stored.js';
import { SORTS, type BoundingBox, type ListingFilter, type Scope, type SearchQuery, type SortName } from '../../src/core/query/query.js';
import { SORT_SPECS } from '../../src/adapters/sqlite-listings/sorts.js';
import { makeListings, prng } from '../support/fixtures.js';
import { inBox } from '../support/oracle.js';
import { MapPoints, MapPointsCache } from '../../src/adapters/sqlite-listings/map-counts.js';
import { runListingStoreConformance } from './listing-store.suite.js';
import { TextSetCache } from '../../src/adapters/sqlite-listings/text-sets.js';
import { chooseTextPlan } from '../../src/adapters/sqlite-listings/text-plan.js';
import { SCHEMA_VERSION } from '../../src/adapters/sqlite-listings/schema.js';
import type { StatementCache } from '../../src/adapters/sqlite-shared/statements.js';
import { toSchema4Layout } from '../support/schema4-layout.js';
import { blockKeyOf } from '../../src/core/dedup/block-key.js';
import { featuresOf, PartlyStoredFeatures, type Features } from '../../src/core/dedup/features.js';
import type { BlockCandidate } from '../../src/core/ports/listing-store.js';
import { clusterAround } from '../../indexer/dedup/cluster.js';

/** A listings file in a new temporary directory. */
const newStoreFile = (prefix: string): string => path.join(mkdtempSync(path.join(tmpdir(), `${prefix}-`)), 'listings.sqlite');

/** A store in a new file holding `listings`. */
async function storeHolding(prefix: string, listings: StoredListing[], options: SqliteListingStoreOptions = {}) {
  const file = newStoreFile(prefix);
  const store = new SqliteListingStore(file, options);
  await store.upsertMany(listings);
  return { file, store };
}

/** The store's search with the plan of the page statement it ran (the one with an ORDER BY). */
function planned(store: SqliteListingStore) {
  const statements = (store as unknown as { statements: StatementCache }).statements;
  const get = statements.get.bind(statements);
  let ordered = '';
  statements.get = (sql: string) => { if (sql.includes('ORDER BY')) ordered = sql; return get(sql); };
  return async (query: SearchQuery) => {
    const page = await store.search(query);
    const unbound = Array((ordered.match(/\?/g) ?? []).length).fill(null);
    const plan = (store.database.prepare(`EXPLAIN QUERY PLAN ${ordered}`).all(...unbound) as { detail: string }[]).map((r) => r.detail).join(' | ');
    return { page, plan };
  };
}

runListingStoreConformance('sqlite', async () => new SqliteListingStore(newStoreFile('ls')));
// The small conformance catalogue never makes a word common enough for the index-first plan: forced
// here, with its in-memory document sets (text-sets.ts) and without them (a check per row in FTS5).
runListingStoreConformance('sqlite, full text index first with document sets',
  async () => new SqliteListingStore(newStoreFile('ls'), { textPlan: 'index-first' }));
// Text first forced: with a department, documents are checked in the department's row set first.
runListingStoreConformance('sqlite, full text first with department sets',
  async () => new SqliteListingStore(newStoreFile('ls'), { textPlan: 'text-first' }));
runListingStoreConformance('sqlite, full text index first checked in FTS5',
  async () => new SqliteListingStore(newStoreFile('ls'), { textPlan: 'index-first', textSets: false }));

describe('SQLite store: document sets of the index-first plan never serve a stale answer', () => {
  const ALL: Scope = { enteredFrom: 0, eligibleSites: null };
  const searchWord = (store: SqliteListingStore, word: string) =>
    store.search({ filter: { words: [word] }, scope: ALL, grouped: false, sort: 'recent', pageSize: 50, page: 1, after: null }).then((r) => r.items.map((l) => l.id));

  it('sees a write of another connection (the indexer) and of its own at the next search', async () => {
    const listings = makeListings({ count: 60, seed: 21 }).map((l) => ({ ...l, status: 'active' as const, has_photos: true, group_sites_ahead: [] }));
    const [first, second] = listings;
    const { file, store: api } = await storeHolding('ts', listings, { textPlan: 'index-first' });
    expect(await searchWord(api, 'xylophone')).to.deep.equal([]);
    // The indexer (another connection) gives one listing the word: the API's next search finds it.
    const indexer = new SqliteListingStore(file);
    await indexer.upsertMany([{ ...first, content: { ...first.content, title: 'Xylophone restauré' } }]);
    expect(await searchWord(api, 'xylophone')).to.deep.equal([first.id]);
    // ... and takes it away again while giving it to another one.
    await indexer.upsertMany([first, { ...second, content: { ...second.content, description: 'Un xylophone au fond du jardin.' } }]);
    expect(await searchWord(api, 'xylophone')).to.deep.equal([second.id]);
    // A write of the API's own connection counts too.
    await api.upsertMany([second]);
    expect(await searchWord(api, 'xylophone')).to.deep.equal([]);
    await indexer.close();
    await api.close();
  });
});

describe('SQLite store: department sets of the text-first plan never serve a stale answer', () => {
  const ALL: Scope = { enteredFrom: 0, eligibleSites: null };
  const search = (store: SqliteListingStore, department: string) =>
    store.search({ filter: { words: ['xylophone'], department }, scope: ALL, grouped: false, sort: 'recent', pageSize: 50, page: 1, after: null })
      .then((r) => r.items.map((l) => l.id));

  it('sees a listing move to another department, written by another connection or its own', async () => {
    const listings = makeListings({ count: 60, seed: 23 }).map((l) => ({ ...l, status: 'active' as const, has_photos: true, group_sites_ahead: [] }));
    const target = { ...listings[0], content: { ...listings[0].content, title: 'Xylophone restauré', department: '69' } };
    const { file, store: api } = await storeHolding('ds', [target, ...listings.slice(1)], { textPlan: 'text-first' });
    expect(await search(api, '69')).to.deep.equal([target.id]);
    expect(await search(api, '13')).to.deep.equal([]);
    // The indexer (another connection) moves it to the Bouches-du-Rhône.
    const indexer = new SqliteListingStore(file);
    await indexer.upsertMany([{ ...target, content: { ...target.content, department: '13' } }]);
    expect(await search(api, '13')).to.deep.equal([target.id]);
    expect(await search(api, '69')).to.deep.equal([]);
    // ... and the API's own connection moves it back.
    await api.upsertMany([target]);
    expect(await search(api, '69')).to.deep.equal([target.id]);
    expect(await search(api, '13')).to.deep.equal([]);
    await indexer.close();
    await api.close();
  });

  it('with the word\'s set current, starts from its intersection with the department\'s: no FTS5 read, the same pages', async () => {
    const listings = makeListings({ count: 300, seed: 29 }).map((l, i) => ({
      ...l, status: 'active' as const, has_photos: true, group_sites_ahead: [],
      content: { ...l.content, title: i % 4 === 0 ? `Grenier ${i}` : l.content.title },
    }));
    const { file, store } = await storeHolding('di', listings, { textPlan: 'text-first' });
    const checkedInFts = new SqliteListingStore(file, { textPlan: 'text-first', textSets: false });
    const searchWithPlan = planned(store);
    const departments = [...new Set(listings.map((l) => l.content.department!))];
    let matched = 0;
    for (const department of departments) {
      for (const sort of ['recent', 'price_asc'] as const) {
        const query: SearchQuery = { filter: { words: ['grenier'], department }, scope: ALL, grouped: false, sort, pageSize: 5, page: 1, after: null };
        const { page, plan } = await searchWithPlan(query);
        expect(plan, department).to.match(/^CO-ROUTINE l \| SCAN j VIRTUAL TABLE INDEX \d+:/);
        expect(plan, department).to.not.include('listings_fts');
        const expected = await checkedInFts.search(query);
        expect(page.items.map((l) => l.id), `${department} ${sort}`).to.deep.equal(expected.items.map((l) => l.id));
        expect(page.hasMore).to.equal(expected.hasMore);
        matched += page.items.length;
      }
    }
    expect(matched, 'pages with matches').to.be.greaterThan(20);
    await checkedInFts.close();
    await store.close();
  });
});

describe('SQLite store: stored duplicate-detection features (findBlockCandidates)', () => {
  /** Features as plain values (some are computed or read on first use), shingles as an array. */
  const FIELDS = ['id', 'source', 'surface', 'landSurface', 'rooms', 'bedrooms', 'price', 'lat', 'lon', 'dpe', 'ges', 'dpeValue',
    'gesValue', 'yearBuilt', 'seller', 'hasText', 'floor'] as const satisfies readonly (keyof Features)[];
  const plain = (features: Features) => ({ ...Object.fromEntries(FIELDS.map((field) => [field, features[field]])), text: Array.from(features.text) });
  const readCount = (candidates: BlockCandidate[]) => candidates.filter((c) => (c.features as PartlyStoredFeatures).read).length;
  const blocksOf = (listings: StoredListing[]) =>
    [...new Set(listings.filter((l) => l.status === 'active').map((l) => blockKeyOf(l)).filter((k): k is string => k !== null))];
  const featureRows = (store: SqliteListingStore) => (store.database.prepare('SELECT count(*) AS n FROM dedup_features').get() as { n: number }).n;

  /** Every block's candidates are findBlock's listings, with the features featuresOf computes from them. */
  async function expectCandidatesMatch(store: SqliteListingStore, listings: StoredListing[]) {
    for (const key of blocksOf(listings)) {
      const whole = new Map((await store.findBlock(key)).map((l) => [l.id, l]));
      const candidates = await store.findBlockCandidates(key);
      expect(candidates.map((c) => c.id).sort()).to.deep.equal([...whole.keys()].sort());
      for (const candidate of candidates) {
        const listing = whole.get(candidate.id)!;
        expect(plain(candidate.features)).to.deep.equal(plain(featuresOf(listing)));
        expect(candidate).to.include({ dedup_key: listing.dedup_key, change_seq: listing.change_seq, catalogue_entered_at: listing.catalogue_entered_at, block_key: key });
      }
    }
  }

  it('keeps features for exactly the active listings that have a block, equal to those of the listing', async () => {
    const listings = makeListings({ count: 120, seed: 5 }).map((l, i) => (i % 9 === 0
      // Completed fields are not the listing's own: its features must leave them out.
      ? { ...l, content: { ...l.content, description: null, surface: null }, completed_from: {} } : l));
    const withCompletion = { ...listings[1], content: { ...listings[1].content, description: 'Texte repris d\'un autre site, très lumineux.' }, completed_from: { description: 'site-b' } };
    listings[1] = withCompletion;
    const { store } = await storeHolding('feat', listings);
    const blockable = listings.filter((l) => l.status === 'active' && blockKeyOf(l) !== null);
    expect(blockable.length).to.be.greaterThan(50);
    expect(featureRows(store)).to.equal(blockable.length);
    expect(featuresOf(withCompletion).hasText).to.equal(false);
    await expectCandidatesMatch(store, listings);

    // A listing that leaves the market leaves its block: its features go.
    const leaving = blockable[0];
    await store.upsertMany([{ ...leaving, status: 'vendue' }]);
    expect(featureRows(store)).to.equal(blockable.length - 1);
    expect((await store.findBlockCandidates(blockKeyOf(leaving)!)).map((c) => c.id)).to.not.include(leaving.id);
    await store.close();
  });

  it('lists the active listings\' block keys page by page, in order, each once (blockKeysAfter)', async () => {
    const listings = makeListings({ count: 150, seed: 13 });
    const { store } = await storeHolding('block-keys', listings);
    const expected = blocksOf(listings).sort();
    expect(expected.length).to.be.above(20);
    // An inactive listing's block is not listed unless an active listing holds it.
    expect(listings.some((l) => l.status !== 'active' && blockKeyOf(l) !== null && !expected.includes(blockKeyOf(l)!))).to.equal(true);
    const paged: string[] = [];
    for (let after: string | null = null; ;) {
      const page = await store.blockKeysAfter(after, 7);
      paged.push(...page);
      if (page.length < 7) break;
      after = page[page.length - 1];
    }
    expect(paged).to.deep.equal(expected);
    await store.close();
  });

  it('a rewrite of group fields only (upsertGroupFields) keeps the stored features and writes the rest', async () => {
    const listings = makeListings({ count: 40, seed: 17 });
    const { store } = await storeHolding('group-fields', listings);
    const listing = listings.find((l) => l.status === 'active' && blockKeyOf(l) !== null)!;
    const features = () => store.database.prepare('SELECT f.* FROM dedup_features f JOIN listings l ON l.rowid = f.rowid WHERE l.id = ?').get(listing.id);
    const before = features();
    expect(before).to.not.equal(undefined);
    // The features are not even recomputed: a caller that broke the contract (an own value changed) would not see it there.
    const rewritten = { ...listing, content: { ...listing.content, surface: 512 }, dedup_key: 'd_grouped', change_seq: listing.change_seq + 1000 };
    await store.upsertGroupFields([rewritten]);
    expect(await store.get(listing.id)).to.deep.include({ dedup_key: 'd_grouped', change_seq: listing.change_seq + 1000, content: rewritten.content });
    expect(features()).to.deep.equal(before);
    await store.upsertMany([rewritten]);
    expect(features()).to.not.deep.equal(before);
    await store.close();
  });

  it('answers whole for listings stored before the table existed; reindex stores their features', async () => {
    const listings = makeListings({ count: 60, seed: 8 });
    const { store } = await storeHolding('feat-old', listings);
    // What older code left: no features, and no own surfaces in the rows.
    store.database.exec('DELETE FROM dedup_features; UPDATE listings SET own_surface = NULL');
    await expectCandidatesMatch(store, listings);
    const someKey = blocksOf(listings)[0];
    expect((await store.findBlockCandidates(someKey)).every((c) => c.listing !== undefined)).to.equal(true);

    store.rebuildIndexes();
    expect(featureRows(store)).to.equal(listings.filter((l) => l.status === 'active' && blockKeyOf(l) !== null).length);
    expect((await store.findBlockCandidates(someKey)).every((c) => c.listing === undefined)).to.equal(true);
    await expectCandidatesMatch(store, listings);
    await store.close();
  });

  it('gives each candidate\'s site and own surface from the block index and reads its other features on first use', async () => {
    const template = makeListings({ count: 40, seed: 21 }).find((l) => l.status === 'active' && blockKeyOf(l) !== null && l.content.surface !== null)!;
    const sources = ['site-a', 'site-b', 'site-c', 'site-d'];
    // One block (same transaction, type, postal code and price): surfaces 40 to 96 m² two metres apart
    // (not within the 3 % limit of each other), except listing 10 at 59 m², one metre from listing 9's
    // 58; listing 29 has no surface and another text (it is compared with everyone, and matches no one).
    const surfaceOf = (i: number) => (i === 29 ? null : i === 10 ? 59 : 40 + 2 * i);
    const block = Array.from({ length: 30 }, (_, i): StoredListing => ({
      ...template, id: `${sources[i % 4]}:blk-${i}`, change_seq: template.change_seq + i, completed_from: {},
      content: {
        ...template.content, source: sources[i % 4], reference: `blk-${i}`, surface: surfaceOf(i), rooms: null,
        ...(i === 29 ? { description: 'Local au calme, sans rapport avec les autres biens de la rue, vendu loué.' } : {}),
      },
    }));
    const { store } = await storeHolding('feat-lazy', block);
    const key = blockKeyOf(block[0])!;
    expect(new Set(block.map((l) => blockKeyOf(l)))).to.deep.equal(new Set([key]));
    const candidates = await store.findBlockCandidates(key);
    expect(candidates).to.have.length(30);
    expect(candidates.map((c) => [c.id, c.features.source, c.features.surface])).to.deep.equal(
      block.map((l) => [l.id, l.content.source, featuresOf(l).surface]).sort((a, b) => String(a[0]).localeCompare(String(b[0]))));
    expect(readCount(candidates)).to.equal(0);

    // Read at first use: a change of the stored row made after the candidates were read shows.
    const seed = candidates.find((c) => c.id === block[9].id)!;
    store.database.prepare('UPDATE dedup_features SET year_built = 1901 WHERE rowid = (SELECT rowid FROM listings WHERE id = ?)').run(seed.id);
    expect(seed.features.yearBuilt).to.equal(1901);
    expect(readCount(candidates)).to.equal(1);

    // Clustering around listing 9 compares it with listing 10 (which it matches: listing 10 is then
    // compared in turn) and with listing 29: the 27 others' stored features are never read.
    const sorted = [...candidates].sort((a, b) => (a.id < b.id ? -1 : 1));
    const { groups } = clusterAround(sorted.map((c) => c.features), [sorted.indexOf(seed)]);
    expect(groups.map((group) => group.map((i) => sorted[i].id).sort())).to.deep.equal([[block[10].id, block[9].id].sort()]);
    expect(candidates.filter((c) => (c.features as PartlyStoredFeatures).read).map((c) => c.id).sort()).to.deep.equal([block[9].id, block[10].id, block[29].id].sort());
    // A row whose stored features are gone (never on a consistent store) is read whole instead.
    const unread = candidates.find((c) => c.id === block[20].id)!;
    store.database.prepare('DELETE FROM dedup_features WHERE rowid = (SELECT rowid FROM listings WHERE id = ?)').run(unread.id);
    // Every candidate's features, read now, are those of its listing (the seed's with its changed year).
    const listingOf = (id: string) => block.find((l) => l.id === id)!;
    for (const candidate of candidates) {
      const expected = { ...plain(featuresOf(listingOf(candidate.id))), ...(candidate === seed ? { yearBuilt: 1901 } : {}) };
      expect(plain(candidate.features)).to.deep.equal(expected);
    }
    await store.close();
  });

  it('reads a block from the entries of ix_block, not from the listing rows; reindex brings an older ix_block to that', async () => {
    const listings = makeListings({ count: 60, seed: 12 });
    const { file, store: first } = await storeHolding('feat-ix', listings);
    const planOf = (s: SqliteListingStore) => (s.database.prepare(`EXPLAIN QUERY PLAN ${BLOCK_CANDIDATES_SQL}`).all('x') as { detail: string }[]).map((r) => r.detail);
    expect(planOf(first)).to.include('SEARCH l USING COVERING INDEX ix_block (block_key=?)');
    // A store of older code: the ix_block of the block key only, and no own_surface column.
    first.database.exec('DROP INDEX ix_block; ALTER TABLE listings DROP COLUMN own_surface; CREATE INDEX ix_block ON listings(block_key) WHERE active = 1');
    first.database.pragma('user_version = 0');
    await first.close();
    const store = new SqliteListingStore(file);
    const plan = () => planOf(store);
    const unfilled = () => (store.database.prepare('SELECT count(*) AS n FROM listings WHERE active = 1 AND block_key IS NOT NULL AND own_surface IS NULL').get() as { n: number }).n;
    // It answers the same, from the rows, with every candidate's features read at once.
    expect(plan()).to.include('SEARCH l USING INDEX ix_block (block_key=?)');
    expect(unfilled()).to.be.greaterThan(30);
    await expectCandidatesMatch(store, listings);
    const someKey = blocksOf(listings)[0];
    expect((await store.findBlockCandidates(someKey)).every((c) => !(c.features instanceof PartlyStoredFeatures))).to.equal(true);
    store.rebuildIndexes();
    expect(plan()).to.include('SEARCH l USING COVERING INDEX ix_block (block_key=?)');
    expect(unfilled()).to.equal(0);
    expect((await store.findBlockCandidates(someKey)).every((c) => c.features instanceof PartlyStoredFeatures)).to.equal(true);
    await expectCandidatesMatch(store, listings);
    // Regrouping rewrites the columns the entries hold: the candidates follow.
    const regrouped = listings.filter((l) => l.status === 'active').slice(0, 10).map((l, i) => ({ ...l, dedup_key: `regrouped-${i % 3}`, change_seq: l.change_seq + 1000 }));
    await store.upsertMany(regrouped);
    await expectCandidatesMatch(store, listings.map((l) => regrouped.find((r) => r.id === l.id) ?? l));
    await store.close();
  });
});

describe('SQLite store: precomputed Annonce and map point texts (public_json, map_json)', () => {
  const ALL: Scope = { enteredFrom: 0, eligibleSites: null };
  const listings = makeListings({ count: 120, seed: 5 });
  const stored = new Map(listings.map((l) => [l.id, l]));

  async function firstPage(store: SqliteListingStore): Promise<StoredListing[]> {
    return (await store.search({ filter: {}, scope: ALL, grouped: false, sort: 'recent', pageSize: 50, page: 1, after: null })).items;
  }

  function expectPresentedLikeStored(items: StoredListing[]): void {
    expect(items).to.have.length(50);
    for (const item of items) expect(JSON.parse(String(annonceJson(item)))).to.deep.equal(presentAnnonce(stored.get(item.id)!));
  }

  /** Map points of the whole world, through both plans (grouped: covering index; all listings: R*Tree). */
  async function mapPoints(store: SqliteListingStore): Promise<MapPointListing[]> {
    const world = { south: -90, west: -180, north: 90, east: 180 };
    const grouped = await store.map({ filter: {}, scope: ALL, grouped: true, bbox: world, limit: 2000 });
    const all = await store.map({ filter: {}, scope: ALL, grouped: false, bbox: world, limit: 2000 });
    expect(all.points.length).to.be.greaterThan(grouped.points.length);
    return [...grouped.points, ...all.points];
  }

  function expectMapPresentedLikeStored(points: MapPointListing[]): void {
    for (const point of points) expect(JSON.parse(String(mapPointJson(point))), point.id).to.deep.equal(presentMapPoint(stored.get(point.id)!));
  }

  async function loadedStore(): Promise<string> {
    const file = newStoreFile('pj');
    const store = new SqliteListingStore(file);
    await store.upsertMany(listings);
    await store.close();
    return file;
  }

  /** After reindex, pages come from the texts again, and they present each listing as stored. */
  async function expectServedFromTexts(store: SqliteListingStore): Promise<void> {
    const items = await firstPage(store);
    expect(items.every((item) => Buffer.isBuffer(item.public_json))).to.equal(true);
    expectPresentedLikeStored(items);
    const points = await mapPoints(store);
    expect(points.every((point) => Buffer.isBuffer(point.map_json))).to.equal(true);
    expectMapPresentedLikeStored(points);
  }

  it('serves pages from the texts written at index time', async () => {
    const store = new SqliteListingStore(await loadedStore());
    await expectServedFromTexts(store);
    await store.close();
  });

  it('texts of another presenter version are not served until reindex writes them again', async () => {
    const file = await loadedStore();
    const db = new Database(file);
    db.prepare("UPDATE meta SET value = '0' WHERE key = 'public_json_version'").run();
    db.prepare("UPDATE listing_annonces SET public_json = '{\"stale\":true}'").run();
    db.prepare("UPDATE listings SET map_json = '{\"stale\":true}'").run();
    db.close();
    const store = new SqliteListingStore(file);
    const before = await firstPage(store);
    expect(before.some((item) => item.public_json !== undefined)).to.equal(false);
    expectPresentedLikeStored(before);
    const pointsBefore = await mapPoints(store);
    expect(pointsBefore.some((point) => point.map_json !== undefined)).to.equal(false);
    expectMapPresentedLikeStored(pointsBefore);
    store.rebuildIndexes();
    await expectServedFromTexts(store);
    await store.close();
  });

  it('joins the points\' texts in SQL, and reads rows when some point has no text', async () => {
    const file = await loadedStore();
    const store = new SqliteListingStore(file);
    const world = { south: -90, west: -180, north: 90, east: 180 };
    const joined = await store.map({ filter: {}, scope: ALL, grouped: true, bbox: world, limit: 2000 });
    expect(joined.joined?.count).to.equal(joined.points.length).and.to.be.greaterThan(10);
    const joinedText = JSON.parse(`[${joined.joined!.texts.join(',')}]`) as { source: string; reference: string }[];
    expect(joinedText.map((p) => `${p.source}:${p.reference}`)).to.deep.equal(joined.points.map((p) => p.id));
    expectMapPresentedLikeStored(joined.points);
    // Rows whose text is missing (written while the texts were stale): every point then comes from its row.
    const other = new Database(file);
    other.prepare('UPDATE listings SET map_json = NULL WHERE rowid % 3 = 0').run();
    other.close();
    const byRows = await store.map({ filter: {}, scope: ALL, grouped: true, bbox: world, limit: 2000 });
    expect(byRows.joined).to.equal(undefined);
    expect(byRows.total).to.equal(joined.total);
    expect(byRows.points.map((p) => p.id).sort()).to.deep.equal(joined.points.map((p) => p.id).sort());
    expect(byRows.points.some((p) => p.map_json === undefined)).to.equal(true);
    expectMapPresentedLikeStored(byRows.points);
    await store.close();
  });

  it('a store made before the column existed gets it, and computes the texts until reindex', async () => {
    const file = await loadedStore();
    const db = new Database(file);
    // As a store of the time before the precomputed texts: schema 4's layout, without public_json and map_json.
    toSchema4Layout(db, { withPublicJson: false });
    db.exec("DROP INDEX ix_map_points; ALTER TABLE listings DROP COLUMN map_json; DELETE FROM meta WHERE key = 'public_json_version'");
    db.close();
    const store = new SqliteListingStore(file);
    // The index added by newer code is not built when a store holding listings is opened (minutes at 1M): reindex builds it.
    const hasPointsIndex = () => new Database(file, { readonly: true }).prepare("SELECT 1 FROM sqlite_master WHERE name = 'ix_map_points'").get() !== undefined;
    expect(hasPointsIndex()).to.equal(false);
    expectPresentedLikeStored(await firstPage(store));
    expect((await firstPage(store)).some((item) => item.public_json !== undefined)).to.equal(false);
    expectMapPresentedLikeStored(await mapPoints(store));
    store.rebuildIndexes();
    expect(hasPointsIndex()).to.equal(true);
    await expectServedFromTexts(store);
    await store.close();
  });
});

describe('SQLite store: narrow rows (schema 5: the texts in listing_texts)', () => {
  const ALL: Scope = { enteredFrom: 0, eligibleSites: null };
  const listings = makeListings({ count: 150, seed: 41 });
  const columnsOf = (db: Database.Database, table: string) => (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);

  /** What a client sees of the store: pages (texts included), a map, full-text pages, details, the feed. */
  async function answers(store: SqliteListingStore) {
    const page = async (filter: object, grouped: boolean) => (await store.search({ filter, scope: ALL, grouped, sort: 'recent', pageSize: 40, page: 1, after: null }))
      .items.map((item) => String(annonceJson(item)));
    const word = listings[3].content.title!.split(' ')[1];
    const world = { south: -90, west: -180, north: 90, east: 180 };
    const map = await store.map({ filter: {}, scope: ALL, grouped: false, bbox: world, limit: 2000 });
    return {
      page: await page({}, false),
      grouped: await page({}, true),
      text: await page({ words: [word] }, false),
      textCount: (await store.search({ filter: { words: [word] }, scope: ALL, grouped: false, sort: 'recent', pageSize: 200, page: 1, after: null })).items.length,
      map: map.points.map((point) => String(mapPointJson(point))),
      details: await Promise.all(listings.slice(0, 20).map(async (l) => String(annonceJson((await store.get(l.id))!)))),
      feed: (await store.feed({ filter: {}, scope: ALL, changedUntil: Number.MAX_SAFE_INTEGER, pageSize: 200, after: null })).items.map((item) => item.id),
    };
  }

  it('keeps the texts out of the listings table, and full text follows their writes', async () => {
    const { file, store } = await storeHolding('nr', listings);
    const db = new Database(file, { readonly: true });
    expect(columnsOf(db, 'listings')).to.not.include.members(['doc']).and.not.include('title').and.not.include('public_json');
    expect(columnsOf(db, 'listing_texts')).to.deep.equal(['rowid', 'doc', 'title', 'description']);
    expect(columnsOf(db, 'listing_annonces')).to.deep.equal(['rowid', 'public_json']);
    const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    expect(count('SELECT count(*) AS n FROM listing_texts')).to.equal(listings.length);
    expect(count('SELECT count(*) AS n FROM listings l JOIN listing_texts t ON t.rowid = l.rowid JOIN listing_annonces a ON a.rowid = l.rowid')).to.equal(listings.length);
    db.close();
    // A new title is found by its words, the old one no longer.
    const [first] = listings;
    await store.upsertMany([{ ...first, content: { ...first.content, title: 'Zanzibarite lumineuse' } }]);
    const find = async (word: string) => (await store.search({ filter: { words: [word] }, scope: ALL, grouped: false, sort: 'recent', pageSize: 10, page: 1, after: null })).items.map((l) => l.id);
    expect(await find('zanzibarite')).to.deep.equal([first.id]);
    expect(await find(first.content.title!.split(' ')[1])).to.not.include(first.id);
    await store.close();
  });

  it('reads the Annonce texts of the rows a sorted page returns, not of every row it sorted or skipped', async () => {
    const titled = listings.map((l, i) => ({ ...l, content: { ...l.content, title: `Grenier ${i}` } }));
    const wide = await storeHolding('nr', titled);
    const sorted = await storeHolding('nr', titled, { textPlan: 'text-first' });
    const query = { filter: { words: ['grenier'] }, scope: ALL, grouped: false, sort: 'price_asc' as const, pageSize: 10, page: 4, after: null };
    // Every read of listing_annonces goes through a counting function: the table behind a view of
    // the same name (a TEMP view: this connection only), so the store's own SQL is what is counted.
    let reads = 0;
    const db = sorted.store.database;
    db.function('counted_read', (text: unknown) => { reads++; return text; });
    db.exec(`ALTER TABLE listing_annonces RENAME TO listing_annonces_kept;
      CREATE TEMP VIEW listing_annonces AS SELECT rowid AS rowid, counted_read(public_json) AS public_json FROM listing_annonces_kept`);
    const page = await sorted.store.search(query);
    // The same page as a store that reads its texts the ordinary way: nothing but the reads changed.
    expect(page.items.map((item) => String(annonceJson(item)))).to.deep.equal((await wide.store.search(query)).items.map((item) => String(annonceJson(item))));
    expect(page.items).to.have.length(10);
    // FTS5 first, then a sort of its 150 matches: the page's rows and the one that tells hasMore.
    expect(reads).to.equal(11);
    await sorted.store.close();
    await wide.store.close();
  });

  it('gives the listings of search and feed pages whole: the fields a page did not read come from their rows when asked', async () => {
    const { store } = await storeHolding('nr', listings);
    const fields = (l: StoredListing) => ({
      id: l.id, content: l.content, completed_from: l.completed_from, status: l.status, catalogue_entered_at: l.catalogue_entered_at,
      updated_at: l.updated_at, published_at: l.published_at, changed_at: l.changed_at, change_seq: l.change_seq, left_market_at: l.left_market_at,
      has_photos: l.has_photos, dedup_key: l.dedup_key, group_sites_ahead: l.group_sites_ahead, group_members: l.group_members,
      price_points: l.price_points, content_hash: l.content_hash,
    });
    for (const sort of ['recent', 'price_asc', 'surface_desc'] as const) {
      const page = await store.search({ filter: {}, scope: ALL, grouped: false, sort, pageSize: 30, page: 2, after: null });
      expect(page.items).to.have.length(30);
      for (const item of page.items) {
        expect(item.public_json, 'served from its precomputed text').to.be.instanceOf(Buffer);
        expect(fields(item)).to.deep.equal(fields((await store.get(item.id))!));
      }
    }
    const feed = await store.feed({ filter: {}, scope: ALL, changedUntil: Number.MAX_SAFE_INTEGER, pageSize: 40, after: null });
    const next = await store.feed({ filter: {}, scope: ALL, changedUntil: Number.MAX_SAFE_INTEGER, pageSize: 40, after: feed.last });
    for (const item of [...feed.items, ...next.items]) {
      expect(item.public_json, 'served from its precomputed text').to.be.instanceOf(Buffer);
      expect(fields(item)).to.deep.equal(fields((await store.get(item.id))!));
    }
    // The feed's page, from ix_feed's entries alone: no listing row read (the texts' table is read by rowid).
    const plan = (store.database.prepare(`EXPLAIN QUERY PLAN SELECT l.rowid AS rowid, l.id AS id, l.changed_at AS changed_at, l.change_seq AS change_seq
      FROM listings l WHERE l.active = 1 AND l.changed_at <= ? ORDER BY l.changed_at, l.change_seq LIMIT 41`).all(0) as { detail: string }[]).map((r) => r.detail);
    expect(plan).to.deep.equal(['SEARCH l USING COVERING INDEX ix_feed (changed_at<?)']);
    await store.close();
  });

  it('converts a store of schema 4 (texts in listings) when it is opened, and answers as before', async () => {
    const { file, store } = await storeHolding('nr', listings);
    const before = await answers(store);
    expect(before.textCount).to.be.greaterThan(0);
    await store.close();
    const db = new Database(file);
    const indexesOf = (handle: Database.Database) => handle.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'listings' ORDER BY name").all();
    const indexesBefore = indexesOf(db);
    expect(indexesBefore.length).to.be.greaterThan(15);
    toSchema4Layout(db);
    expect(columnsOf(db, 'listings')).to.include.members(['title', 'description', 'doc', 'public_json']);
    db.close();

    const converted = new SqliteListingStore(file);
    expect(await answers(converted)).to.deep.equal(before);
    await converted.close();
    const check = new Database(file);
    expect(columnsOf(check, 'listings')).to.not.include.members(['doc']).and.not.include('title').and.not.include('description').and.not.include('public_json');
    for (const table of ['listing_texts', 'listing_annonces']) expect((check.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n).to.equal(listings.length);
    expect((check.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as { value: string }).value).to.equal(String(SCHEMA_VERSION));
    check.exec("INSERT INTO listings_fts(listings_fts, rank) VALUES ('integrity-check', 1)");
    // The table was rebuilt: every index it had is there again, and the count's triggers follow it.
    expect(indexesOf(check)).to.deep.equal(indexesBefore);
    expect((check.prepare('SELECT n FROM listing_count').get() as { n: number }).n).to.equal(listings.length);
    check.close();
    // Opened again: nothing left to convert, the same answers.
    const reopened = new SqliteListingStore(file);
    expect(await answers(reopened)).to.deep.equal(before);
    await reopened.close();
  });
});

describe('SQLite store: a department and one type walk the (department, type) index of their sort', () => {
  const ALL: Scope = { enteredFrom: 0, eligibleSites: null };
  const listings = makeListings({ count: 400, seed: 77 }).map((l) => ({ ...l, status: 'active' as const, has_photos: true, group_sites_ahead: [] }));

  it('in every sort, with the same pages (page 1 and by cursor) as the department index gives', async () => {
    const { store } = await storeHolding('dt', listings);
    // The same listings in a store without the (department, type) indexes: the department's indexes serve.
    const { store: without } = await storeHolding('dt', listings);
    for (const sort of SORTS) without.database.exec(`DROP INDEX ix_main_dept_type_${sort}`);
    const ids = (items: readonly { id: string }[]) => items.map((item) => item.id);
    const searchWithPlan = planned(store);
    for (const sort of SORTS) {
      for (const types of [['maison'], ['appartement'], ['maison', 'terrain']]) {
        const query: SearchQuery = { filter: { department: '75', types }, scope: ALL, grouped: true, sort, pageSize: 7, page: 1, after: null };
        const first = await searchWithPlan(query);
        const expected = await without.search(query);
        // One type: the sort's (department, type) index; several: the department's, whose entries are checked.
        const index = types.length === 1 ? `ix_main_dept_type_${sort}` : `ix_main_dept_${sort}`;
        expect(first.plan, `${sort} ${types}`).to.match(new RegExp(`USING (COVERING )?INDEX ${index} \\(department=\\?${types.length === 1 ? ' AND type_norm=\\?' : ''}\\)`));
        expect(first.page.items.length, `${sort} ${types}`).to.equal(7);
        expect(ids(first.page.items), `${sort} ${types}`).to.deep.equal(ids(expected.items));
        const next = await store.search({ ...query, after: first.page.last });
        expect(next.items, `${sort} ${types}, by cursor`).to.not.be.empty;
        expect(ids(next.items), `${sort} ${types}, by cursor`).to.deep.equal(ids((await without.search({ ...query, after: expected.last })).items));
      }
    }
    await store.close();
    await without.close();
  });

  it('with statistics (reindex runs ANALYZE), a type without a department never skip-scans them', async () => {
    const { store } = await storeHolding('dt', listings);
    store.rebuildIndexes();
    expect(store.database.prepare("SELECT count(*) FROM sqlite_stat1 WHERE idx LIKE 'ix_main_dept_type_%'").pluck().get()).to.equal(SORTS.length);
    expect(store.database.prepare("SELECT count(*) FROM sqlite_stat1 WHERE idx LIKE 'ix_main_tx_%' AND stat LIKE '% noskipscan'").pluck().get()).to.equal(6);
    const searchWithPlan = planned(store);
    for (const sort of SORTS) {
      const query: SearchQuery = { filter: { types: ['maison'] }, scope: ALL, grouped: true, sort, pageSize: 7, page: 1, after: null };
      const { page, plan } = await searchWithPlan(query);
      expect(plan, sort).to.not.include('ANY(department)').and.not.include('ANY(transaction_type)');
      expect(plan, sort).to.not.include('TEMP B-TREE');
      expect(page.items, sort).to.have.length(7);
      // Statistics on a store that has them already: the switch is kept, written once.
      store.analyze();
      expect(store.database.prepare("SELECT stat FROM sqlite_stat1 WHERE idx = ?").pluck().get(`ix_main_dept_type_${sort}`)).to.match(/\d noskipscan$/);
    }
    await store.close();
  });

  it('a postal code or a city drives the plan (its index), whatever the department and the type', async () => {
    const { store } = await storeHolding('dt', listings);
    const searchWithPlan = planned(store);
    const cases: [ListingFilter, string][] = [[{ postalCode: '75008' }, 'ix_main_cp_recent (postal_code=?)'], [{ cities: ['paris'] }, 'ix_main_city_recent (city_norm=?)']];
    for (const [narrower, index] of cases) {
      const query: SearchQuery = { filter: { department: '75', types: ['maison'], ...narrower }, scope: ALL, grouped: true, sort: 'recent', pageSize: 50, page: 1, after: null };
      const { page, plan } = await searchWithPlan(query);
      expect(plan).to.include(`INDEX ${index}`);
      // The department still filters: the same page as without it (the place is in it), and none with another one.
      const withoutDepartment = await store.search({ ...query, filter: { types: ['maison'], ...narrower } });
      expect(page.items.map((l) => l.id)).to.deep.equal(withoutDepartment.items.map((l) => l.id)).and.to.not.be.empty;
      expect((await store.search({ ...query, filter: { ...query.filter, department: '69' } })).items).to.deep.equal([]);
    }
    await store.close();
  });
});

describe('SQLite store: a transaction in the price sorts across France walks its transaction index', () => {
  const ALL: Scope = { enteredFrom: 0, eligibleSites: null };
  const listings = makeListings({ count: 400, seed: 78 }).map((l) => ({ ...l, status: 'active' as const, has_photos: true, group_sites_ahead: [] }));
  const PRICE_SORTS = SORTS.filter((sort) => SORT_SPECS[sort].byTransaction);
  const query = (sort: SortName, filter: ListingFilter): SearchQuery => ({ filter, scope: ALL, grouped: true, sort, pageSize: 7, page: 1, after: null });
  const ids = (items: readonly { id: string }[]) => items.map((item) => item.id);
  /** The same listings in a store without the transaction indexes: the sort indexes serve, the reference pages. */
  const storeWithoutTransactionIndexes = async () => {
    const { store } = await storeHolding('tx', listings);
    for (const sort of PRICE_SORTS) store.database.exec(`DROP INDEX ix_main_tx_${sort}; DROP INDEX ix_main_tx_type_${sort}`);
    return store;
  };

  it('in the price sorts, with the same pages (page 1 and by cursor) as the sort indexes give', async () => {
    expect(PRICE_SORTS).to.have.members(['price_asc', 'price_desc', 'pricem2_asc']);
    const { store } = await storeHolding('tx', listings);
    const without = await storeWithoutTransactionIndexes();
    const searchWithPlan = planned(store);
    const cases: [ListingFilter, RegExp][] = [
      [{ transaction: 'vente' }, /INDEX ix_main_tx_SORT \(transaction_type=\?\)/],
      [{ transaction: 'location' }, /INDEX ix_main_tx_SORT \(transaction_type=\?\)/],
      [{ transaction: 'vente', types: ['maison'] }, /INDEX ix_main_tx_type_SORT \(transaction_type=\? AND type_norm=\?\)/],
      // Several types: the transaction's index, whose entries hold the type.
      [{ transaction: 'vente', types: ['maison', 'appartement'] }, /INDEX ix_main_tx_SORT \(transaction_type=\?\)/],
    ];
    for (const sort of PRICE_SORTS) {
      for (const [filter, index] of cases) {
        const label = `${sort} ${JSON.stringify(filter)}`;
        const first = await searchWithPlan(query(sort, filter));
        expect(first.plan, label).to.match(new RegExp(index.source.replace('SORT', sort)));
        expect(first.plan, label).to.not.include('TEMP B-TREE');
        expect(first.page.items, label).to.have.length(7);
        const expected = await without.search(query(sort, filter));
        expect(ids(first.page.items), label).to.deep.equal(ids(expected.items));
        const next = await store.search({ ...query(sort, filter), after: first.page.last });
        expect(next.items, `${label}, by cursor`).to.not.be.empty;
        expect(ids(next.items), `${label}, by cursor`).to.deep.equal(ids((await without.search({ ...query(sort, filter), after: expected.last })).items));
      }
    }
    await store.close();
    await without.close();
  });

  it('with statistics (reindex runs ANALYZE), still in the price sorts, never a skip-scan in the others', async () => {
    const { store } = await storeHolding('tx', listings);
    store.rebuildIndexes();
    const searchWithPlan = planned(store);
    for (const sort of SORTS) {
      const { page, plan } = await searchWithPlan(query(sort, { transaction: 'location', types: ['appartement'] }));
      if (SORT_SPECS[sort].byTransaction) expect(plan, sort).to.include(`INDEX ix_main_tx_type_${sort} (transaction_type=? AND type_norm=?)`);
      else expect(plan, sort).to.not.include('ix_main_tx_');
      expect(plan, sort).to.not.include('TEMP B-TREE').and.not.include('ANY(');
      expect(page.items, sort).to.not.be.empty;
    }
    await store.close();
  });

  it('a region with them is tested on the index entries (a covering plan), with the same pages', async () => {
    const { store } = await storeHolding('tx', listings);
    const without = await storeWithoutTransactionIndexes();
    const searchWithPlan = planned(store);
    for (const sort of PRICE_SORTS) {
      for (const [filter, index] of [
        [{ transaction: 'vente', region: 'ile de france' }, `ix_main_tx_${sort}`],
        [{ transaction: 'vente', types: ['appartement'], region: 'auvergne rhone alpes' }, `ix_main_tx_type_${sort}`],
      ] as [ListingFilter, string][]) {
        const { page, plan } = await searchWithPlan(query(sort, filter));
        // pricem2_asc reads price_per_m2 from the row of each listing of the page (the index holds only
        // the sort key's expression), so its plan is never covering; the region is still tested on the entry.
        expect(plan, `${sort} ${JSON.stringify(filter)}`).to.include(`USING ${sort === 'pricem2_asc' ? '' : 'COVERING '}INDEX ${index} `);
        expect(page.items, `${sort} ${JSON.stringify(filter)}`).to.not.be.empty;
        expect(ids(page.items)).to.deep.equal(ids((await without.search(query(sort, filter))).items));
      }
    }
    await store.close();
    await without.close();
  });

  it('never in the other sorts, nor with a place, whose indexes drive the plan', async () => {
    const { store } = await storeHolding('tx', listings);
    const searchWithPlan = planned(store);
    const sold = new Set(listings.filter((l) => l.content.transaction_type === 'vente').map((l) => l.id));
    for (const sort of SORTS.filter((s) => !SORT_SPECS[s].byTransaction)) {
      const { page, plan } = await searchWithPlan(query(sort, { transaction: 'vente' }));
      expect(plan, sort).to.not.include('ix_main_tx_');
      expect(plan, sort).to.not.include('TEMP B-TREE');
      expect(page.items, sort).to.have.length(7);
    }
    for (const sort of PRICE_SORTS) {
      const { plan } = await searchWithPlan(query(sort, { transaction: 'vente', department: '75', types: ['maison'] }));
      expect(plan, sort).to.include(`INDEX ix_main_dept_type_${sort} (department=? AND type_norm=?)`);
      const inDepartment = await searchWithPlan(query(sort, { transaction: 'vente', department: '75' }));
      expect(inDepartment.plan, sort).to.include(`INDEX ix_main_dept_${sort} (department=?)`);
      // The transaction still filters: every listing of the page has it.
      expect(inDepartment.page.items.every((item) => sold.has(item.id)), sort).to.equal(true);
      expect(inDepartment.page.items, sort).to.not.be.empty;
    }
    await store.close();
  });
});

describe('SQLite store: reindex brings older index definitions up to date', () => {
  it('an index of older code (same name, other columns) is built again by reindex, and pages stay the same', async () => {
    const listings = makeListings({ count: 80, seed: 9 });
    const loaded = await storeHolding('ix', listings);
    const { file } = loaded;
    let { store } = loaded;
    const query = { filter: { department: listings[0].content.department!, priceMin: 1 }, scope: { enteredFrom: 0, eligibleSites: null }, grouped: true, sort: 'recent' as const, pageSize: 10, page: 1, after: null };
    const before = (await store.search(query)).items.map((l) => l.id);
    expect(before).to.not.be.empty;
    await store.close();
    // What the first schema had: the sort key and the id only.
    const db = new Database(file);
    db.exec('DROP INDEX ix_main_dept_recent; CREATE INDEX ix_main_dept_recent ON listings(department, updated_at, id) WHERE vis = 2');
    db.prepare("UPDATE meta SET value = '1' WHERE key = 'schema_version'").run();
    db.close();
    const definition = (f: string) => {
      const check = new Database(f, { readonly: true });
      try {
        return {
          sql: (check.prepare("SELECT sql FROM sqlite_master WHERE name = 'ix_main_dept_recent'").get() as { sql: string }).sql,
          version: (check.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as { value: string }).value,
        };
      } finally { check.close(); }
    };
    store = new SqliteListingStore(file);
    // Opening (the API's start-up) builds nothing.
    expect(definition(file).sql).to.not.include('price');
    store.rebuildIndexes();
    expect(definition(file).version).to.equal(String(SCHEMA_VERSION));
    expect(definition(file).sql).to.include('entered_at, price, type_norm, transaction_type');
    expect((await store.search(query)).items.map((l) => l.id)).to.deep.equal(before);
    await store.close();
  });
});

describe('SQLite store: the listing count kept by triggers (listing_count)', () => {
  const tableCount = (file: string): number => {
    const db = new Database(file, { readonly: true });
    try { return (db.prepare('SELECT count(*) AS n FROM listings').get() as { n: number }).n; } finally { db.close(); }
  };

  it('follows inserts of its own connection and of another one, not updates', async () => {
    const listings = makeListings({ count: 50, seed: 31 });
    const { file, store: api } = await storeHolding('lc', listings.slice(0, 30));
    expect(await api.count()).to.equal(30);
    // Ten updates and five new listings.
    await api.upsertMany([...listings.slice(0, 10).map((l) => ({ ...l, change_seq: l.change_seq + 1000 })), ...listings.slice(30, 35)]);
    expect(await api.count()).to.equal(35);
    const indexer = new SqliteListingStore(file);
    await indexer.upsertMany(listings.slice(35));
    expect(await api.count()).to.equal(50);
    expect(await api.count()).to.equal(tableCount(file));
    await indexer.close();
    await api.close();
  });

  it('a file of older code (no count, or inserts made without its triggers) is counted again on open', async () => {
    const listings = makeListings({ count: 40, seed: 32 });
    const { file, store } = await storeHolding('lc', listings.slice(0, 25));
    await store.close();
    // Older code: no triggers, and rows inserted without them (copies of five rows under new ids).
    const db = new Database(file);
    db.exec('DROP TRIGGER listing_count_ai; DROP TRIGGER listing_count_ad');
    const columns = (db.prepare('PRAGMA table_info(listings)').all() as { name: string }[]).map((c) => c.name).filter((name) => name !== 'rowid' && name !== 'id');
    db.exec(`INSERT INTO listings (id, ${columns.join(', ')}) SELECT id || '-copy', ${columns.join(', ')} FROM listings ORDER BY rowid LIMIT 5`);
    db.close();
    const reopened = new SqliteListingStore(file);
    expect(await reopened.count()).to.equal(30);
    // From then on the triggers keep it.
    await reopened.upsertMany(listings.slice(25));
    expect(await reopened.count()).to.equal(45);
    expect(await reopened.count()).to.equal(tableCount(file));
    await reopened.close();
    // No count table at all.
    const older = new Database(file);
    older.exec('DROP TRIGGER listing_count_ai; DROP TRIGGER listing_count_ad; DROP TABLE listing_count');
    older.close();
    const migrated = new SqliteListingStore(file);
    expect(await migrated.count()).to.equal(45);
    await migrated.close();
  });
});

describe('SQLite store: document sets (text-sets.ts) and the plan choice', () => {
  it('intersects two sets from the rowids one of them keeps; null when neither keeps its rowids (both too big)', async () => {
    const { store } = await storeHolding('ti', makeListings({ count: 3, seed: 5 }));
    const sets = new TextSetCache(store.database);
    const evens = Array.from({ length: 60_000 }, (_, i) => 2 * i);
    const threes = Array.from({ length: 60_000 }, (_, i) => 3 * i);
    expect(sets.prepareRows('few', () => [9, 4, 12, 7, 200_000, 0])).to.equal(true);
    expect(sets.prepareRows('evens', () => evens)).to.equal(true);
    expect(sets.prepareRows('threes', () => threes)).to.equal(true);
    expect(sets.intersection('few', 'evens')).to.deep.equal([0, 4, 12]);
    expect(sets.intersection('evens', 'few'), 'either order').to.deep.equal([0, 4, 12]);
    expect(sets.intersection('threes', 'few')).to.deep.equal([0, 9, 12]);
    expect(sets.intersection('evens', 'threes'), '60 000 rows each').to.equal(null);
    await store.close();
  });

  it('reads a set again after a change, at most once a second; in between the caller checks rows in FTS5', async () => {
    const listings = makeListings({ count: 30, seed: 4 });
    const { store } = await storeHolding('tc', listings);
    const sets = new TextSetCache(store.database);
    const has = (rowid: number) => store.database.prepare("SELECT text_set_has('\"xylophone\"', ?) AS x").pluck().get(rowid);
    const T = 1_000_000;
    expect(sets.prepare('"xylophone"', T)).to.equal(true);
    expect(has(1)).to.equal(0);
    await store.upsertMany([{ ...listings[0], content: { ...listings[0].content, title: 'Xylophone ancien' } }]);
    const rowid = store.database.prepare('SELECT rowid FROM listings WHERE id = ?').pluck().get(listings[0].id) as number;
    expect(sets.prepare('"xylophone"', T + 10), 'read 10 ms ago, and the store changed').to.equal(false);
    expect(sets.prepare('"xylophone"', T + 1_500)).to.equal(true);
    expect(has(rowid)).to.equal(1);
    await store.close();
  });

  it('index first wins earlier when rows are checked in a document set', () => {
    // 20 000 documents of 1M, a page of 25 (+1): text first reads 20 000 documents.
    expect(chooseTextPlan(20_000, 1_000_000, 26, 'fts')).to.equal('text-first');
    expect(chooseTextPlan(20_000, 1_000_000, 26, 'set')).to.equal('index-first');
    expect(chooseTextPlan(500, 1_000_000, 26, 'set')).to.equal('text-first');
    expect(chooseTextPlan(243_000, 1_000_000, 26, 'fts')).to.equal('index-first');
  });
});

describe('SQLite store: exact map totals from the in-memory copy of ix_map (map-counts.ts)', () => {
  const visible = (listings: StoredListing[]) => listings.map((l) => ({ ...l, status: 'active' as const, has_photos: true, group_sites_ahead: [] }));
  const listings = visible(makeListings({ count: 400, seed: 33 }));
  const mapTotal = (store: SqliteListingStore, bbox: BoundingBox, enteredFrom = 0) =>
    store.map({ filter: {}, scope: { enteredFrom, eligibleSites: null }, grouped: true, bbox, limit: 5 }).then((r) => r.total);
  const expectedTotal = (all: StoredListing[], bbox: BoundingBox, enteredFrom = 0) =>
    all.filter((l) => inBox(l, bbox) && l.catalogue_entered_at >= enteredFrom).length;

  it('agrees with SQL and with the listings over random boxes, inclusive edges, access dates and the antimeridian', async () => {
    const { file, store: inMemory } = await storeHolding('mc', listings);
    await inMemory.readMapPoints();
    const bySql = new SqliteListingStore(file, { mapCountsInMemory: false });
    const random = prng(5);
    const coordinate = (i: number) => listings[Math.floor(random() * listings.length)].content[i ? 'longitude' : 'latitude']!;
    const entered = [0, ...listings.slice(0, 6).map((l) => l.catalogue_entered_at)];
    let nonEmpty = 0;
    for (let round = 0; round < 300; round++) {
      // Edges on listings' own coordinates half the time (the bounds are inclusive), anywhere otherwise.
      const edge = (i: number, spread: number) => (random() < 0.5 ? coordinate(i) : coordinate(i) + (random() - 0.5) * spread);
      const [a, b] = [edge(0, 4), edge(0, 4)].map((x) => Math.max(-90, Math.min(90, x)));
      const [c, d] = [edge(1, 8), edge(1, 8)].map((x) => Math.max(-180, Math.min(180, x)));
      // West above east half the time: a box across the antimeridian.
      const bbox = { south: Math.min(a, b), north: Math.max(a, b), west: c, east: d };
      const from = entered[round % entered.length];
      const expected = expectedTotal(listings, bbox, from);
      if (expected > 0) nonEmpty++;
      expect(await mapTotal(inMemory, bbox, from), JSON.stringify({ bbox, from })).to.equal(expected);
      expect(await mapTotal(bySql, bbox, from)).to.equal(expected);
    }
    expect(nonEmpty).to.be.greaterThan(100);
    await bySql.close();
    await inMemory.close();
  });

  it('adds up whole cells exactly: a grid of 20 000 points against a brute-force count', () => {
    const random = prng(9);
    const n = 20_000;
    const [lat, lon, entered] = [new Float64Array(n), new Float64Array(n), new Float64Array(n)];
    for (let i = 0; i < n; i++) {
      // Dense clusters (cities) and a sparse spread, on a 0.001 degree grid so points share coordinates.
      const city = i % 3 === 0;
      lat[i] = Math.round((city ? 48.8 + random() * 0.2 : 42 + random() * 9) * 1000) / 1000;
      lon[i] = Math.round((city ? 2.3 + random() * 0.2 : -4 + random() * 12) * 1000) / 1000;
      entered[i] = 1_000 + Math.floor(random() * 100);
    }
    const points = MapPoints.onGrid(lat, lon, entered);
    for (let round = 0; round < 400; round++) {
      const at = Math.floor(random() * n);
      const span = round % 2 === 0 ? 0.3 : 8;
      const south = round % 5 === 0 ? lat[at] : lat[at] - random() * span;
      const west = round % 7 === 0 ? lon[at] : lon[at] - random() * span;
      const bbox = { south, west, north: south + random() * span, east: west + random() * span * 1.5 };
      const from = round % 3 === 0 ? 0 : 1_000 + Math.floor(random() * 100);
      let expected = 0;
      for (let i = 0; i < n; i++) {
        if (lat[i] >= bbox.south && lat[i] <= bbox.north && lon[i] >= bbox.west && lon[i] <= bbox.east && entered[i] >= from) expected++;
      }
      expect(points.count(bbox, from), JSON.stringify({ bbox, from })).to.equal(expected);
    }
    expect(points.count({ south: -90, west: -180, north: 90, east: 180 }, 0)).to.equal(n);
  });

  it('never counts a stale copy: a write of another connection or of its own is in the next total', async () => {
    const { file, store: api } = await storeHolding('mc', listings);
    await api.readMapPoints();
    const bbox = { south: -90, west: -180, north: 90, east: 180 };
    const all = listings.filter((l) => l.content.latitude !== null && l.content.longitude !== null).length;
    expect(await mapTotal(api, bbox)).to.equal(all);
    const indexer = new SqliteListingStore(file);
    const [first, second] = listings.filter((l) => l.content.latitude !== null);
    await indexer.upsertMany([{ ...first, status: 'vendue', left_market_at: first.updated_at }]);
    expect(await mapTotal(api, bbox)).to.equal(all - 1);
    await api.upsertMany([{ ...second, content: { ...second.content, latitude: null, longitude: null } }]);
    expect(await mapTotal(api, bbox)).to.equal(all - 2);
    await indexer.close();
    await api.close();
  });

  it('reads the copy in slices, again once the store changed and the re-read interval has passed, SQL in between', async () => {
    const { file, store } = await storeHolding('mc', listings);
    // Slices of 50 rows: the read spans several turns of the event loop.
    const cache = new MapPointsCache(store.database, 1_000, 50);
    const bbox = { south: -90, west: -180, north: 90, east: 180 };
    expect(cache.current(0), 'no copy yet: the read starts').to.equal(null);
    await cache.settled();
    const first = cache.current(10)!;
    expect(first.size).to.equal(expectedTotal(listings, bbox));
    expect(first.count(bbox, 0)).to.equal(expectedTotal(listings, bbox));
    expect(cache.current(20)).to.equal(first);
    const indexer = new SqliteListingStore(file);
    const moved = listings.find((l) => l.content.latitude !== null)!;
    await indexer.upsertMany([{ ...moved, status: 'retiree', left_market_at: moved.updated_at }]);
    expect(cache.current(500), 'stale, and the last read started less than 1 s ago').to.equal(null);
    await cache.settled();
    expect(cache.current(600)).to.equal(null);
    expect(cache.current(1_000), 'stale: a new read starts').to.equal(null);
    await cache.settled();
    const second = cache.current(1_001)!;
    expect(second).to.not.equal(first);
    expect(second.count(bbox, 0)).to.equal(expectedTotal(listings, bbox) - 1);
    // A read during which another connection commits is thrown away: its slices mix two states.
    const other = new Database(file);
    other.prepare('INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)').run('test_touch', String(Math.random()));
    expect(cache.current(2_001)).to.equal(null);
    other.prepare('INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)').run('test_touch', String(Math.random()));
    await cache.settled();
    expect(cache.current(2_002), 'the store changed while it was read').to.equal(null);
    other.close();
    await indexer.close();
    await store.close();
  });

});
