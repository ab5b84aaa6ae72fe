/**
 * Column lists of the read and write statements (schema/tables.ts names the columns): which columns a
 * result page, a map point or a write carries, shared by the statement builders and the reads.
 */

/** The columns of a `listing_texts` row (schema/tables.ts), after its rowid; `listing_annonces` holds `public_json`. */
export const TEXT_COLUMNS = ['doc', 'title', 'description'] as const;

/** The columns of a `listings` row (narrow: the texts are in listing_texts, TEXT_COLUMNS). */
export const ROW_COLUMNS = [
  'id',
  'source',
  'status',
  'active',
  'vis',
  'entered_at',
  'updated_at',
  'published_at',
  'changed_at',
  'change_seq',
  'left_market_at',
  'transaction_type',
  'type_norm',
  'city_norm',
  'postal_code',
  'department',
  'region_norm',
  'price',
  'price_per_m2',
  'surface',
  'rooms',
  'bedrooms',
  'year_built',
  'dpe',
  'ges',
  'lat',
  'lon',
  'dedup_key',
  'sites_ahead',
  'block_key',
  'own_surface',
  'content_hash',
  'points',
  'map_json',
  'relisted',
  'absent_loads',
  'absent_at',
] as const;

/**
 * One text of the listing row `l`, read by rowid from listing_texts, or listing_annonces for
 * `public_json` (as a BLOB: see PAGE_COLUMNS_PRESENTED). A subquery in the result columns rather
 * than a join, so that the plans of the queries (which index, FTS5 first or not) stay those of the
 * narrow table, and the text is read only for the rows a query returns.
 */
export const textOf = (column: (typeof TEXT_COLUMNS)[number] | 'public_json') =>
  column === 'public_json'
    ? '(SELECT CAST(a.public_json AS BLOB) FROM listing_annonces a WHERE a.rowid = l.rowid)'
    : `(SELECT t.${column} FROM listing_texts t WHERE t.rowid = l.rowid)`;

/** The Annonce text of the listing row `l` as text (JSON functions read it; a BLOB would be taken for JSONB). */
const ANNONCE_TEXT = '(SELECT a.public_json FROM listing_annonces a WHERE a.rowid = l.rowid)';

/** The document and the Annonce text it is read against (rows/doc-text.ts): what fromRow needs beside the row. */
export const DOC_COLUMNS = `${textOf('doc')} AS doc, ${ANNONCE_TEXT} AS public_json`;

/**
 * Columns a result page reads (fromRow, the sort keys, the change position), and every other read of
 * whole listings (detail, the indexer's getMany and findBlock). Not `l.*`: turning columns nobody
 * reads into JS values for every row of a page costs more than the B-tree lookups (npm run bench,
 * when `title` and `description` were in this table). The document is read from
 * listing_texts (textOf), one lookup by rowid per row returned.
 */
export const PAGE_ROW_COLUMNS = [
  'id',
  'status',
  'entered_at',
  'updated_at',
  'published_at',
  'changed_at',
  'change_seq',
  'left_market_at',
  'dedup_key',
  'points',
  'content_hash',
  'absent_loads',
  'absent_at',
  'price',
  'surface',
  'price_per_m2',
]
  .map((c) => `l.${c}`)
  .join(', ');
export const PAGE_COLUMNS = `${PAGE_ROW_COLUMNS}, ${DOC_COLUMNS}`;

/**
 * The same with the precomputed Annonce text instead of `doc` (fromPageRow), while that text is
 * current. Read as a BLOB: better-sqlite3 then copies the UTF-8 bytes into a Buffer instead of
 * decoding them into a JS string (about half the time of a page), and the bytes go
 * to the socket as they are.
 */
export const PAGE_COLUMNS_PRESENTED = `${PAGE_ROW_COLUMNS}, ${textOf('public_json')} AS public_json`;

/**
 * A map point reads only what presentMapPoint shows: typed columns plus six fields taken out of the
 * Annonce text by SQLite (one JSON parse per row in C) instead of building every point's whole
 * listing in JS; for 2 000 points that is most of the time of /annonces/map. A document of the older
 * form holds the whole content; a document of the current form was written with its Annonce, which
 * shows these six content fields as they are (rows/doc-text.ts).
 */
export const MAP_POINT_COLUMNS = `l.id, l.source, l.lat, l.lon, l.price, l.price_per_m2, l.surface, l.rooms, ${textOf('title')} AS title, l.postal_code,
  json_extract(coalesce(json_extract(${textOf('doc')}, '$.content'), ${ANNONCE_TEXT}), '$.reference', '$.price_per_m2_color', '$.type', '$.city', '$.images[0]', '$.is_internal') AS extra`;
