/**
 * The golden table of the SQLite statements (test/adapters/sqlite-listings/golden/*.json): an
 * engine-neutral query, the plan the store chose for it (texts current or not, full-text plan,
 * indexes present), and the exact statements the builders return, one case per file. A statement's
 * text is kept as its lines, joined with newlines when compared.
 *
 * `UPDATE_GOLDENS=1 npx mocha test/adapters/sqlite-listings/golden.test.ts` writes the builders'
 * present output into every file's `expected`: a changed statement is then read in the diff, and
 * either the code or the file is kept.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { FeedQuery, MapQuery, SearchQuery, WithdrawnQuery } from '../../../src/core/query/query.js';
import type { Sql } from '../../../src/adapters/sqlite-listings/read/filter-sql.js';
import { buildSearchSql, type SearchPlan } from '../../../src/adapters/sqlite-listings/read/search-sql.js';
import { buildMapBoxSql, splitAtAntimeridian, type MapPlan } from '../../../src/adapters/sqlite-listings/map/box-sql.js';
import { buildFeedSql, buildWithdrawnSql } from '../../../src/adapters/sqlite-listings/read/flows-sql.js';
import { buildDetailSql } from '../../../src/adapters/sqlite-listings/read/by-id-sql.js';

export type GoldenCase =
  | { kind: 'search'; query: SearchQuery; plan: SearchPlan }
  | { kind: 'map'; query: MapQuery; plan: MapPlan }
  | { kind: 'feed'; query: FeedQuery; plan: { presented: boolean } }
  | { kind: 'withdrawn'; query: WithdrawnQuery; plan: { presented: boolean } }
  | { kind: 'detail'; query: { id: string }; plan: Record<string, never> };

export type Golden = GoldenCase & { file: string; description: string; expected: unknown };

const GOLDEN_DIR = new URL('./golden/', import.meta.url);

export function loadGoldens(): Golden[] {
  return readdirSync(GOLDEN_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => ({ ...JSON.parse(readFileSync(new URL(file, GOLDEN_DIR), 'utf8')), file }) as Golden);
}

/** A statement as stored: its text as lines. */
const stored = <S extends Sql>({ sql, ...rest }: S) => ({ sql: sql.split('\n'), ...rest });

/**
 * What the builders return for a case, as stored. A map lists its boxes (antimeridian split) and
 * each box's statements; the points' LIMIT is the room the answer still has, which depends on the
 * points of the boxes before, so every box is built here with the query's whole limit.
 */
export function buildExpected(golden: GoldenCase): unknown {
  switch (golden.kind) {
    case 'search':
      return stored(buildSearchSql(golden.query, golden.plan));
    case 'map': {
      const boxes = splitAtAntimeridian(golden.query.bbox);
      return {
        boxes: boxes.map((box) => {
          const { count, points } = buildMapBoxSql(golden.query, golden.plan, box, golden.query.limit);
          return { box, count: count === null ? null : stored(count), points: stored(points) };
        }),
      };
    }
    case 'feed':
      return stored(buildFeedSql(golden.query, golden.plan.presented));
    case 'withdrawn':
      return stored(buildWithdrawnSql(golden.query, golden.plan.presented));
    case 'detail':
      return stored(buildDetailSql(golden.query.id));
  }
}

/** Writes the builders' output into the case's file (UPDATE_GOLDENS=1). */
export function updateGolden(golden: Golden): void {
  const { file, expected: _old, ...rest } = golden;
  const text = JSON.stringify({ ...rest, expected: JSON.parse(JSON.stringify(buildExpected(golden))) }, null, 2);
  writeFileSync(new URL(file, GOLDEN_DIR), `${text}\n`);
}
