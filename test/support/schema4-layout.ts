/**
 * Turns a store written by the current code back into the layout of schema 4 and older: the texts
 * (`title`, `description`, `doc`, `public_json`) as the last columns of `listings`, the full-text
 * index over `listings`, and that schema's triggers, so that tests can open a store as older code
 * left it (migrations.ts moveTextsToTheirTable converts it).
 */
import type Database from 'better-sqlite3';
import { decodeDoc } from '../../src/adapters/sqlite-listings/rows/doc-text.js';

/** The documents as older code wrote them, with the whole content (doc-text.ts reads both forms). */
export function toWholeContentDocs(db: Database.Database): void {
  const rows = db
    .prepare('SELECT t.rowid AS rowid, t.doc AS doc, a.public_json AS annonce FROM listing_texts t JOIN listing_annonces a ON a.rowid = t.rowid')
    .all() as {
    rowid: number;
    doc: string;
    annonce: string;
  }[];
  const write = db.prepare('UPDATE listing_texts SET doc = ? WHERE rowid = ?');
  db.transaction(() => {
    for (const row of rows) write.run(JSON.stringify(decodeDoc(row.doc, row.annonce)), row.rowid);
  })();
}

const SCHEMA4_TRIGGERS = `
CREATE TRIGGER listings_ai AFTER INSERT ON listings BEGIN
  INSERT INTO listings_fts(rowid, title, description) VALUES (new.rowid, new.title, new.description);
  INSERT INTO listings_rtree(id, min_lat, max_lat, min_lon, max_lon)
    SELECT new.rowid, new.lat, new.lat, new.lon, new.lon WHERE new.lat IS NOT NULL AND new.lon IS NOT NULL;
END;
CREATE TRIGGER listings_ad AFTER DELETE ON listings BEGIN
  INSERT INTO listings_fts(listings_fts, rowid, title, description) VALUES ('delete', old.rowid, old.title, old.description);
  DELETE FROM listings_rtree WHERE id = old.rowid;
  DELETE FROM dedup_features WHERE rowid = old.rowid;
END;
CREATE TRIGGER listings_au_text AFTER UPDATE OF title, description ON listings BEGIN
  INSERT INTO listings_fts(listings_fts, rowid, title, description) VALUES ('delete', old.rowid, old.title, old.description);
  INSERT INTO listings_fts(rowid, title, description) VALUES (new.rowid, new.title, new.description);
END;`;

/** `withPublicJson` false: a store of the time before the precomputed Annonce texts (no `public_json`). */
export function toSchema4Layout(db: Database.Database, { withPublicJson = true } = {}): void {
  const texts = ['title', 'description', 'doc', ...(withPublicJson ? ['public_json'] : [])];
  toWholeContentDocs(db);
  db.transaction(() => {
    for (const trigger of ['listings_ai', 'listings_ad', 'listing_texts_ai', 'listing_texts_ad', 'listing_texts_au'])
      db.exec(`DROP TRIGGER IF EXISTS ${trigger}`);
    db.exec('DROP TABLE listings_fts_vocab; DROP TABLE listings_fts');
    for (const column of texts) db.exec(`ALTER TABLE listings ADD COLUMN ${column} TEXT`);
    db.exec(
      `UPDATE listings SET (${texts.join(', ')}) = (SELECT ${texts.join(', ')} FROM listing_texts t JOIN listing_annonces a ON a.rowid = t.rowid WHERE t.rowid = listings.rowid)`,
    );
    db.exec('DROP TABLE listing_texts; DROP TABLE listing_annonces');
    db.exec(`CREATE VIRTUAL TABLE listings_fts USING fts5(title, description, content='listings', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2');
      CREATE VIRTUAL TABLE listings_fts_vocab USING fts5vocab(listings_fts, row);
      INSERT INTO listings_fts(listings_fts) VALUES ('rebuild');`);
    db.exec(SCHEMA4_TRIGGERS);
    db.prepare("UPDATE meta SET value = '4' WHERE key = 'schema_version'").run();
  })();
  // Older code did not number its migrations (migrations.ts): its stores have user_version 0.
  db.pragma('user_version = 0');
}
