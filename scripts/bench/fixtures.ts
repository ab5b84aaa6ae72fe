/**
 * Facts about the loaded catalogue that the scenarios draw their parameters from, read once from
 * the store file: the departments with the most searchable listings, listing ids for the detail,
 * postal codes that have a PTZ zone. Requests vary over these so no scenario is one cached query.
 */
import type Database from 'better-sqlite3';
import { loadPtzLookup } from '../../src/core/refdata/ptz.js';
import { seededRandom } from './stats.js';

export interface CatalogueFacts {
  searchable: number;
  /** The 20 departments with the most searchable listings, with their counts (largest first). */
  departments: { code: string; listings: number }[];
  /** `source` and `reference` of active listings (detail endpoint). */
  listings: { source: string; reference: string }[];
  /** Postal codes of listings that have a PTZ zone. */
  postalCodes: string[];
  /** Documents holding the common and the rare words (fts5vocab). */
  wordDocs: Record<string, number>;
}

export const COMMON_WORD = 'lumineux';
export const RARE_WORDS = ['pigeonnier', 'orangerie', 'tomettes'] as const;

export function readFacts(db: Database.Database, enteredFrom: number): CatalogueFacts {
  const random = seededRandom(7);
  const searchable = (db.prepare('SELECT count(*) AS n FROM listings WHERE vis = 2').get() as { n: number }).n;
  const departments = db
    .prepare(
      'SELECT department AS code, count(*) AS listings FROM listings WHERE vis = 2 AND department IS NOT NULL GROUP BY department ORDER BY listings DESC LIMIT 20',
    )
    .all() as { code: string; listings: number }[];
  const maxRowid = (db.prepare('SELECT max(rowid) AS n FROM listings').get() as { n: number }).n;
  const byRowid = db.prepare(
    'SELECT source, substr(id, length(source) + 2) AS reference, postal_code FROM listings WHERE rowid = ? AND active = 1 AND entered_at >= ?',
  );
  const listings: { source: string; reference: string }[] = [];
  const postal = new Set<string>();
  const ptz = loadPtzLookup();
  for (let attempt = 0; attempt < 20_000 && listings.length < 2000; attempt++) {
    const row = byRowid.get(1 + Math.floor(random() * maxRowid), enteredFrom) as { source: string; reference: string; postal_code: string | null } | undefined;
    if (!row) continue;
    listings.push({ source: row.source, reference: row.reference });
    if (row.postal_code && ptz.zoneOf(row.postal_code)) postal.add(row.postal_code);
  }
  const vocab = db.prepare('SELECT doc FROM listings_fts_vocab WHERE term = ?');
  const wordDocs: Record<string, number> = {};
  for (const word of [COMMON_WORD, ...RARE_WORDS]) wordDocs[word] = (vocab.get(word) as { doc: number } | undefined)?.doc ?? 0;
  return { searchable, departments, listings, postalCodes: [...postal], wordDocs };
}
