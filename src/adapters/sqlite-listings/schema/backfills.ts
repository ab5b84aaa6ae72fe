/**
 * What `npm run indexer -- reindex` writes into the rows of a store made by older code: the dedup
 * features and own surfaces of rows written before they were stored, the precomputed texts
 * (public_json, map_json) of rows written by another presenter version, and the documents of the
 * older form. Each walks the table by rowid in transactions of a few thousand rows, so the WAL stays
 * small.
 */
import type Database from 'better-sqlite3';
import { PUBLIC_JSON_VERSION } from '../../../core/model/present.js';
import { DOC_COLUMNS, PAGE_COLUMNS, textOf } from '../rows/columns.js';
import { fromRow, toRow, type ListingRow } from '../rows/listing-row.js';
import { PUBLIC_JSON_META } from './tables.js';
import type { ListingWrites } from '../write/listing-writes.js';

/** Stores the features of every active listing with a block key that has none (a store from before dedup_features), then the own surfaces. */
export function fillDedupFeatures(db: Database.Database, writes: ListingWrites): void {
  const read = db.prepare(`SELECT l.rowid AS rowid, ${PAGE_COLUMNS} FROM listings l
      WHERE l.rowid > ? AND l.active = 1 AND l.block_key IS NOT NULL AND NOT EXISTS (SELECT 1 FROM dedup_features f WHERE f.rowid = l.rowid)
      ORDER BY l.rowid LIMIT 2000`);
  for (let after = 0; ; ) {
    const rows = read.all(after) as (ListingRow & { rowid: number })[];
    if (rows.length === 0) break;
    db.transaction(() => {
      for (const row of rows) writes.writeFeatures(row.rowid, fromRow(row));
    })();
    after = rows.at(-1)!.rowid;
  }
  fillOwnSurfaces(db);
}

/** Writes `own_surface` (schema/migrations.ts addOwnSurfaceColumn) of the rows written before it existed, from their stored features. */
function fillOwnSurfaces(db: Database.Database): void {
  const fill = db.prepare(`UPDATE listings SET own_surface = ifnull((SELECT f.surface FROM dedup_features f WHERE f.rowid = listings.rowid), 0)
      WHERE rowid > ? AND rowid <= ? AND own_surface IS NULL AND active = 1 AND block_key IS NOT NULL`);
  const last = (db.prepare('SELECT ifnull(max(rowid), 0) AS n FROM listings').get() as { n: number }).n;
  for (let after = 0; after < last; after += 5000) fill.run(after, after + 5000);
}

/**
 * Writes `public_json` and `map_json` of every row with the current presenters, then marks the texts
 * current. The document is written again with its Annonce: it is read against it (rows/doc-text.ts).
 */
export function rewritePublicJson(db: Database.Database): void {
  rewriteTexts(db, 'l.rowid > ?');
  db.prepare('INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)').run(PUBLIC_JSON_META, String(PUBLIC_JSON_VERSION));
}

/**
 * Writes the documents of the older form (the whole content, rows/doc-text.ts) in the current one, with
 * their Annonce texts: an older store's texts table shrinks to a fraction (its pages stay free in
 * the file until a VACUUM). Only while the Annonce texts are current (rewritePublicJson writes every
 * row otherwise). Returns the number of documents written.
 */
export function compactDocuments(db: Database.Database): number {
  return rewriteTexts(db, `l.rowid > ? AND json_type(${textOf('doc')}, '$.content') IS NOT NULL`);
}

/** Writes the texts (document, Annonce, map point) of the rows `where` selects, walking them by rowid. */
function rewriteTexts(db: Database.Database, where: string): number {
  const read = db.prepare(`SELECT l.rowid AS rowid, l.*, ${DOC_COLUMNS} FROM listings l WHERE ${where} ORDER BY l.rowid LIMIT 2000`);
  const writeAnnonce = db.prepare(
    'INSERT INTO listing_annonces (rowid, public_json) VALUES (?, ?) ON CONFLICT(rowid) DO UPDATE SET public_json = excluded.public_json',
  );
  const writeDoc = db.prepare('UPDATE listing_texts SET doc = ? WHERE rowid = ?');
  const writePoint = db.prepare('UPDATE listings SET map_json = ? WHERE rowid = ?');
  let written = 0;
  for (let after = 0; ; ) {
    const rows = read.all(after) as (ListingRow & { rowid: number })[];
    if (rows.length === 0) break;
    db.transaction(() => {
      for (const row of rows) {
        const texts = toRow(fromRow(row));
        writeAnnonce.run(row.rowid, texts.public_json);
        writeDoc.run(texts.doc, row.rowid);
        writePoint.run(texts.map_json, row.rowid);
      }
    })();
    written += rows.length;
    after = rows.at(-1)!.rowid;
  }
  return written;
}
