/**
 * The SQLite aggregate reads as pure builders: golden statements (golden-aggregates/*.json), each
 * query's SQL and parameters compared whole, and the tile rows SQLite computes against the tiling of
 * src/core/query/aggregates.ts (the formula Elasticsearch's geotile grid uses).
 */
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { ClustersQuery, StatsQuery } from '../../../src/core/query/aggregates.js';
import { MERCATOR_MAX_LATITUDE, tileX, tileY, tilesCovered } from '../../../src/core/query/aggregates.js';
import { buildClustersSql } from '../../../src/adapters/sqlite-listings/map/clusters-sql.js';
import { buildActiveStatsSql, buildWithdrawnStatsSql } from '../../../src/adapters/sqlite-listings/read/stats-sql.js';
import { LISTINGS_SCHEMA } from '../../../src/adapters/sqlite-listings/schema/tables.js';
import { prng } from '../../support/fixtures.js';

type Golden =
  | { kind: 'clusters'; description: string; query: ClustersQuery; statements: unknown[] }
  | { kind: 'stats'; description: string; query: StatsQuery; statements: unknown[] };

const DIR = new URL('./golden-aggregates/', import.meta.url);
const goldens = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((file) => ({ file, ...(JSON.parse(readFileSync(new URL(file, DIR), 'utf8')) as Golden) }));

describe('SQLite aggregate statements (golden files)', () => {
  for (const golden of goldens) {
    it(`${golden.file}: ${golden.description}`, () => {
      const built = golden.kind === 'clusters' ? [buildClustersSql(golden.query)] : [buildActiveStatsSql(golden.query), buildWithdrawnStatsSql(golden.query)];
      expect(JSON.parse(JSON.stringify(built))).to.deep.equal(golden.statements);
    });
  }
});

describe('web-map tiling', () => {
  it('SQLite puts every point in the tile the shared formula gives, at every zoom', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE listings (id TEXT, lat REAL, lon REAL, price REAL, vis INTEGER, entered_at INTEGER)');
    const random = prng(3);
    const points: [number, number][] = [
      [0, 0],
      [85.06, 180],
      [-85.06, -180],
      [48.858, 2.294],
      [MERCATOR_MAX_LATITUDE, 0],
      [-90, 179.999],
    ];
    for (let i = 0; i < 300; i++) points.push([Math.round((random() * 180 - 90) * 1000) / 1000, Math.round((random() * 360 - 180) * 1000) / 1000]);
    const insert = db.prepare('INSERT INTO listings VALUES (?, ?, ?, 1, 2, 0)');
    points.forEach(([lat, lon], i) => insert.run(`p${i}`, lat, lon));
    for (const zoom of [0, 1, 5, 12, 20]) {
      const { sql, params } = buildClustersSql({
        filter: {},
        scope: { enteredFrom: 0, eligibleSites: null },
        grouped: true,
        bbox: { south: -90, west: -180, north: 90, east: 180 },
        zoom,
      });
      const rows = db.prepare(sql).all(...params) as { x: number; y: number; n: number }[];
      const expected = new Map<string, number>();
      for (const [lat, lon] of points)
        expected.set(`${tileX(lon, zoom)}/${tileY(lat, zoom)}`, (expected.get(`${tileX(lon, zoom)}/${tileY(lat, zoom)}`) ?? 0) + 1);
      expect(new Map(rows.map((r) => [`${r.x}/${r.y}`, r.n])), `zoom ${zoom}`).to.deep.equal(expected);
    }
    db.close();
  });

  it('numbers tiles as the slippy-map tiling does, and counts the tiles of a box', () => {
    // The tile of the Eiffel Tower at zoom 12 in any slippy-map viewer.
    expect([tileX(2.2945, 12), tileY(48.8584, 12)]).to.deep.equal([2074, 1409]);
    // The textbook formula, ln(tan + sec), gives the same rows as the sine form.
    const random = prng(8);
    for (let i = 0; i < 2000; i++) {
      const lat = (random() * 2 - 1) * 85;
      const zoom = Math.floor(random() * 21);
      const rad = (lat * Math.PI) / 180;
      const textbook = Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * 2 ** zoom);
      expect(tileY(lat, zoom), `${lat} at ${zoom}`).to.equal(textbook);
    }
    expect(tilesCovered({ south: -90, west: -180, north: 90, east: 180 }, 3)).to.equal(64);
    // Across the antimeridian: the columns at both ends.
    expect(tilesCovered({ south: 0.5, west: 170, north: 1, east: -170 }, 2)).to.equal(2);
    expect(tilesCovered({ south: 0.5, west: 170, north: 1, east: 175 }, 2)).to.equal(1);
  });
});

describe('SQLite statistics: the withdrawn listings read through their area', () => {
  const plan = (query: StatsQuery) => {
    const db = new Database(':memory:');
    db.exec(LISTINGS_SCHEMA);
    const { sql, params } = buildWithdrawnStatsSql(query);
    const detail = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail).join(' | ');
    db.close();
    return detail;
  };
  const query = (area: StatsQuery['area']): StatsQuery => ({
    area,
    transaction: 'vente',
    types: ['maison'],
    scope: { enteredFrom: 0, eligibleSites: null },
    grouped: true,
    withdrawnSince: 1,
  });

  it("seeks a department's or a postal code's withdrawn listings of the window, not the whole window's", () => {
    expect(plan(query({ kind: 'department', department: '59' }))).to.match(/USING INDEX ix_left_market_dept \(department=\? AND left_market_at>\?\)/);
    expect(plan(query({ kind: 'postalCode', postalCode: '59000' }))).to.match(/USING INDEX ix_left_market_cp \(postal_code=\? AND left_market_at>\?\)/);
  });
});
