/**
 * The full-text hard spot: full text combined with filters in SQLite.
 * For the common and the rare word, the same store query is timed with each plan forced
 * (text first: FTS5 drives, then filter and sort; index first: the filter's sort index drives,
 * each row checked against FTS5) and with the per-query choice of text-plan.ts. A single fixed plan
 * was the situation before the choice: text first loses on common words, index first on rare ones.
 * The EXPLAIN QUERY PLAN of each statement is printed, as the profile of this spot.
 */
import type Database from 'better-sqlite3';
import type { TextPlan } from '../../src/adapters/sqlite-listings/text/plan.js';
import { RawStore } from './raw-store.js';
import type { SqliteListingStore, SqliteListingStoreOptions } from '../../src/adapters/sqlite-listings/listing-store.js';
import { median, timeMs } from './stats.js';

export interface PlanRow {
  label: string;
  words: string;
  /** Documents holding the word (fts5vocab), what the choice is made from. */
  docs: number;
  textFirstMs: number;
  /** Index first, each row checked in the expression's in-memory document set (text-sets.ts). */
  indexFirstMs: number;
  /** Index first, each row checked by an FTS5 lookup (textSets: false). */
  indexFirstFtsMs: number;
  chosen: TextPlan;
  chosenMs: number;
  explain: Record<TextPlan, string>;
}

export interface PlanCase {
  label: string;
  words: string;
  paths: string[];
}

export async function measureTextPlans(
  file: string,
  enteredFrom: number,
  cursorSecret: string,
  cases: PlanCase[],
  docsOf: (word: string) => number,
  runs: number,
): Promise<PlanRow[]> {
  const open = (options: SqliteListingStoreOptions) => RawStore.sqlite(file, enteredFrom, cursorSecret, options);
  const stores = {
    'text-first': open({ textPlan: 'text-first' }),
    'index-first': open({ textPlan: 'index-first' }),
    'index-first-fts': open({ textPlan: 'index-first', textSets: false }),
    auto: open({}),
  };
  try {
    const rows: PlanRow[] = [];
    for (const c of cases) {
      const paths = c.paths.slice(0, runs);
      const time = async (store: RawStore<SqliteListingStore>) => {
        const samples: number[] = [];
        for (const path of paths) {
          const call = store.callFor(path);
          await call();
          samples.push(await timeMs(call));
        }
        return median(samples);
      };
      rows.push({
        label: c.label,
        words: c.words,
        docs: docsOf(c.words),
        textFirstMs: await time(stores['text-first']),
        indexFirstMs: await time(stores['index-first']),
        indexFirstFtsMs: await time(stores['index-first-fts']),
        chosen: isTextFirst(withFresh(open({}), (raw) => captureSearch(raw, paths[0]).sql)) ? 'text-first' : 'index-first',
        chosenMs: await time(stores.auto),
        explain: {
          'text-first': withFresh(open({ textPlan: 'text-first' }), (raw) => explain(raw, paths[0])),
          'index-first': withFresh(open({ textPlan: 'index-first' }), (raw) => explain(raw, paths[0])),
        },
      });
    }
    return rows;
  } finally {
    for (const store of Object.values(stores)) await store.close();
  }
}

/**
 * Text first is the statement whose outer loop is FTS5, or the rows of the word's and the
 * department's document sets (text/choice.ts withText).
 */
const isTextFirst = (sql: string) => /FROM (listings_fts f|json_each\(\?\) j) CROSS JOIN/.test(sql);

/** A store opened for one capture: its statement cache is empty, so the search statement is prepared. */
function withFresh<T>(raw: RawStore<SqliteListingStore>, use: (raw: RawStore<SqliteListingStore>) => T): T {
  try {
    return use(raw);
  } finally {
    void raw.close();
  }
}

function explain(raw: RawStore<SqliteListingStore>, path: string): string {
  const { sql, params } = captureSearch(raw, path);
  const rows = raw.store.database.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { id: number; parent: number; detail: string }[];
  const depth = new Map<number, number>([[0, 0]]);
  return rows
    .map((r) => {
      const d = (depth.get(r.parent) ?? 0) + 1;
      depth.set(r.id, d);
      return `${'  '.repeat(d - 1)}${r.detail}`;
    })
    .join('\n');
}

const CAUGHT = new Error('statement caught');

/**
 * The SQL and parameters of the search statement the store runs for `path`, caught by wrapping
 * `prepare` of a freshly opened store (an empty statement cache, so the statement is prepared, with
 * the very page size of the query: the plan choice depends on it). The statement is stopped before
 * it runs: index first on a rare word takes seconds.
 */
function captureSearch(raw: RawStore<SqliteListingStore>, path: string): { sql: string; params: unknown[] } {
  const db: Database.Database = raw.store.database;
  const query = raw.searchQuery(Object.fromEntries(new URL(path, 'http://bench').searchParams));
  const original = db.prepare;
  let caught: { sql: string; params: unknown[] } | null = null;
  db.prepare = ((sql: string) => {
    const statement = original.call(db, sql);
    if (/^SELECT .* ORDER BY /s.test(sql)) {
      (statement as { all: (...p: unknown[]) => unknown[] }).all = (...params: unknown[]) => {
        caught = { sql, params };
        throw CAUGHT;
      };
    }
    return statement;
  }) as typeof db.prepare;
  try {
    // search() runs synchronously up to the statement, so `caught` is set when it returns.
    raw.store.search(query).catch((error: unknown) => {
      if (error !== CAUGHT) throw error;
    });
  } finally {
    db.prepare = original;
  }
  if (!caught) throw new Error(`no search statement caught for ${path}`);
  return caught;
}
