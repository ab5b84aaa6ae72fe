/**
 * Schema of the embedded listings store. Typed columns carry every filter and sort key; the texts
 * (`doc`: the listing as JSON, `title` and `description` for FTS5) are in `listing_texts` and the
 * Annonce (`public_json`) in `listing_annonces`, keyed by the same rowid, and only read to present
 * the rows of a page.
 *
 * Narrow rows (schema 5): with the texts in the same table a leaf page held about two rows and each
 * row had an overflow page, so every scan of the table (each index a first load builds at its end,
 * the API's filters on columns no index holds) read the texts too, and a large catalogue's table no
 * longer fitted in the page cache. The narrow table is a fraction of that size, its indexes build
 * faster, and writing a listing as two rows costs the same as one wide row (docs/benchmarks-history.md).
 *
 * `vis` folds the implicit search rules into one indexed integer:
 *   2 = active, has a photo, reference listing of its group (no better-ranked active site ahead)
 *   1 = active, has a photo, a duplicate of a better-ranked site
 *   0 = not searchable (not active, or no photo)
 * so the default grouped search is `vis = 2` and `dedup=0` is `vis >= 1`, both served by partial
 * indexes.
 */

/**
 * 2: the search indexes carry the filter columns (SEARCH_INDEX_FILTER_COLUMNS); 3: ix_block covers a
 * block's candidates; 4: ix_block also holds each candidate's site and own surface (`own_surface`);
 * 5: the texts in `listing_texts` and `listing_annonces` (narrow rows; a store of schema 4 or older
 * is converted on open, schema/migrations.ts moveTextsToTheirTable); 6: ix_withdrawn_block (what a new
 * listing may relist) and ix_scope (a snapshot load's site), which `reindex` builds on an older store.
 */
export const SCHEMA_VERSION = 6;

/** Filter columns appended to every search index (see the comment above the indexes). */
const SEARCH_INDEX_FILTER_COLUMNS = 'entered_at, price, type_norm, transaction_type';
/** The same for the indexes whose key holds the type already. */
const TYPE_INDEX_FILTER_COLUMNS = 'entered_at, price, transaction_type';
/**
 * The same for the indexes whose key holds the transaction, and the transaction and the type; with
 * the region, which no index leads with: a region among these filters is then tested on the entry
 * instead of the listing row (e.g. `region=bretagne&type=maison&transaction=vente&sort=price_asc`).
 */
const TRANSACTION_INDEX_FILTER_COLUMNS = 'entered_at, price, type_norm, region_norm';
const TRANSACTION_TYPE_INDEX_FILTER_COLUMNS = 'entered_at, price, region_norm';

export const LISTINGS_SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE IF NOT EXISTS listings (
  rowid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  source TEXT NOT NULL,
  status TEXT NOT NULL,
  active INTEGER NOT NULL,
  vis INTEGER NOT NULL,
  entered_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  published_at INTEGER,
  changed_at INTEGER NOT NULL,
  change_seq INTEGER NOT NULL,
  left_market_at INTEGER,
  transaction_type TEXT,
  type_norm TEXT,
  city_norm TEXT,
  postal_code TEXT,
  department TEXT,
  region_norm TEXT,
  price REAL,
  price_per_m2 REAL,
  surface REAL,
  rooms INTEGER,
  bedrooms INTEGER,
  year_built INTEGER,
  dpe TEXT,
  ges TEXT,
  lat REAL,
  lon REAL,
  map_json TEXT,
  dedup_key TEXT,
  sites_ahead TEXT NOT NULL DEFAULT '',
  block_key TEXT,
  own_surface REAL,
  content_hash TEXT NOT NULL,
  points TEXT,
  relisted INTEGER NOT NULL DEFAULT 0,
  absent_loads INTEGER NOT NULL DEFAULT 0,
  absent_at INTEGER NOT NULL DEFAULT 0
);

-- The texts of each listing (schema 5), one row in each table per listing, with the rowid of its
-- listings row. The Annonce a result page sends (about 2.3 KB) has a table of its own: on a 4 KB page
-- it is read whole from one page, where behind the document (2.1 KB) it would start on the row's page
-- and end on an overflow page (measured at 1M: the first scenario's page 0.21 ms in the wide row,
-- 0.31-0.32 ms with both texts in one table).
CREATE TABLE IF NOT EXISTS listing_annonces (rowid INTEGER PRIMARY KEY, public_json TEXT);
CREATE TABLE IF NOT EXISTS listing_texts (rowid INTEGER PRIMARY KEY, doc TEXT NOT NULL, title TEXT, description TEXT);

CREATE VIRTUAL TABLE IF NOT EXISTS listings_fts USING fts5(
  title, description, content='listing_texts', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE IF NOT EXISTS listings_fts_vocab USING fts5vocab(listings_fts, row);
CREATE VIRTUAL TABLE IF NOT EXISTS listings_rtree USING rtree(id, min_lat, max_lat, min_lon, max_lon);

-- Duplicate-detection features of each ACTIVE listing that has a block key (src/core/dedup/features.ts),
-- keyed by the listing's rowid and written with it (upsertMany): a load reads its candidates from here,
-- about 1 KB each, instead of whole listings (6 KB rows and a JSON document each). A listing without a
-- row here (a store written before the table existed) is read whole; \`reindex\` fills the table.
CREATE TABLE IF NOT EXISTS dedup_features (
  rowid INTEGER PRIMARY KEY, source TEXT NOT NULL, surface REAL, land_surface REAL, rooms INTEGER, bedrooms INTEGER, price REAL,
  lat REAL, lon REAL, dpe TEXT, ges TEXT, dpe_value REAL, ges_value REAL, year_built INTEGER, seller TEXT, floor TEXT,
  has_text INTEGER NOT NULL, shingles BLOB NOT NULL
);

-- Keep the full-text and box indexes in step with the tables (external-content FTS5 needs this).
CREATE TRIGGER IF NOT EXISTS listings_ai AFTER INSERT ON listings BEGIN
  INSERT INTO listings_rtree(id, min_lat, max_lat, min_lon, max_lon)
    SELECT new.rowid, new.lat, new.lat, new.lon, new.lon WHERE new.lat IS NOT NULL AND new.lon IS NOT NULL;
END;
CREATE TRIGGER IF NOT EXISTS listings_ad AFTER DELETE ON listings BEGIN
  DELETE FROM listing_texts WHERE rowid = old.rowid;
  DELETE FROM listing_annonces WHERE rowid = old.rowid;
  DELETE FROM listings_rtree WHERE id = old.rowid;
  DELETE FROM dedup_features WHERE rowid = old.rowid;
END;
CREATE TRIGGER IF NOT EXISTS listing_texts_ai AFTER INSERT ON listing_texts BEGIN
  INSERT INTO listings_fts(rowid, title, description) VALUES (new.rowid, new.title, new.description);
END;
CREATE TRIGGER IF NOT EXISTS listing_texts_ad AFTER DELETE ON listing_texts BEGIN
  INSERT INTO listings_fts(listings_fts, rowid, title, description) VALUES ('delete', old.rowid, old.title, old.description);
END;
CREATE TRIGGER IF NOT EXISTS listing_texts_au AFTER UPDATE OF title, description ON listing_texts BEGIN
  INSERT INTO listings_fts(listings_fts, rowid, title, description) VALUES ('delete', old.rowid, old.title, old.description);
  INSERT INTO listings_fts(rowid, title, description) VALUES (new.rowid, new.title, new.description);
END;
CREATE TRIGGER IF NOT EXISTS listings_au_geo AFTER UPDATE OF lat, lon ON listings BEGIN
  DELETE FROM listings_rtree WHERE id = old.rowid;
  INSERT INTO listings_rtree(id, min_lat, max_lat, min_lon, max_lon)
    SELECT new.rowid, new.lat, new.lat, new.lon, new.lon WHERE new.lat IS NOT NULL AND new.lon IS NOT NULL;
END;

-- Sort indexes: every sort has the unique id as tiebreaker so keyset pages never skip or repeat.
-- Sort keys put unknown values last: ifnull(x, 1e18) ascending, ifnull(x, -1) descending.
-- After the sort key each index carries the columns of the most common filters (access date, price,
-- type, transaction): SQLite tests them on the index entry and reads a listing row only for a
-- match (measured at 1M: dept + price range, sort=recent 0.30 -> 0.09 ms; dept + type 0.85 -> 0.17 ms).
CREATE INDEX IF NOT EXISTS ix_main_recent ON listings(updated_at, id, ${SEARCH_INDEX_FILTER_COLUMNS}) WHERE vis = 2;
CREATE INDEX IF NOT EXISTS ix_main_dept_recent ON listings(department, updated_at, id, ${SEARCH_INDEX_FILTER_COLUMNS}) WHERE vis = 2;
CREATE INDEX IF NOT EXISTS ix_main_cp_recent ON listings(postal_code, updated_at, id, ${SEARCH_INDEX_FILTER_COLUMNS}) WHERE vis = 2;
CREATE INDEX IF NOT EXISTS ix_main_city_recent ON listings(city_norm, updated_at, id, ${SEARCH_INDEX_FILTER_COLUMNS}) WHERE vis = 2;
CREATE INDEX IF NOT EXISTS ix_main_price_asc ON listings(ifnull(price, 1e18), id, ${SEARCH_INDEX_FILTER_COLUMNS}) WHERE vis = 2;
CREATE INDEX IF NOT EXISTS ix_main_price_desc ON listings(ifnull(price, -1), id, ${SEARCH_INDEX_FILTER_COLUMNS}) WHERE vis = 2;
CREATE INDEX IF NOT EXISTS ix_main_surface_desc ON listings(ifnull(surface, -1), id, ${SEARCH_INDEX_FILTER_COLUMNS}) WHERE vis = 2;
CREATE INDEX IF NOT EXISTS ix_main_pricem2_asc ON listings(ifnull(price_per_m2, 1e18), id, ${SEARCH_INDEX_FILTER_COLUMNS}) WHERE vis = 2;
CREATE INDEX IF NOT EXISTS ix_main_dept_price_asc ON listings(department, ifnull(price, 1e18), id, ${SEARCH_INDEX_FILTER_COLUMNS}) WHERE vis = 2;
CREATE INDEX IF NOT EXISTS ix_main_dept_price_desc ON listings(department, ifnull(price, -1), id, ${SEARCH_INDEX_FILTER_COLUMNS}) WHERE vis = 2;
CREATE INDEX IF NOT EXISTS ix_main_dept_surface_desc ON listings(department, ifnull(surface, -1), id, ${SEARCH_INDEX_FILTER_COLUMNS}) WHERE vis = 2;
CREATE INDEX IF NOT EXISTS ix_main_dept_pricem2_asc ON listings(department, ifnull(price_per_m2, 1e18), id, ${SEARCH_INDEX_FILTER_COLUMNS}) WHERE vis = 2;
-- A department and ONE type, in every sort (the commonest search of a listings site: houses of a
-- department, cheapest first). In the indexes above the type is only tested on each entry: a page of
-- the houses of a department, cheapest first, walked 1 443 entries on average (the cheap ones are
-- flats) where these read its 26 (measured at 1M, 20 departments x 2 types: raw 0.19 -> 0.09 ms for
-- price_asc, 0.21 -> 0.07 ms for surface_desc). Several types, or none, still use the indexes above:
-- an IN list on the second column would leave the page to a sort.
CREATE INDEX IF NOT EXISTS ix_main_dept_type_recent ON listings(department, type_norm, updated_at, id, ${TYPE_INDEX_FILTER_COLUMNS}) WHERE vis = 2;
CREATE INDEX IF NOT EXISTS ix_main_dept_type_price_asc ON listings(department, type_norm, ifnull(price, 1e18), id, ${TYPE_INDEX_FILTER_COLUMNS}) WHERE vis = 2;
CREATE INDEX IF NOT EXISTS ix_main_dept_type_price_desc ON listings(department, type_norm, ifnull(price, -1), id, ${TYPE_INDEX_FILTER_COLUMNS}) WHERE vis = 2;
CREATE INDEX IF NOT EXISTS ix_main_dept_type_surface_desc ON listings(department, type_norm, ifnull(surface, -1), id, ${TYPE_INDEX_FILTER_COLUMNS}) WHERE vis = 2;
CREATE INDEX IF NOT EXISTS ix_main_dept_type_pricem2_asc ON listings(department, type_norm, ifnull(price_per_m2, 1e18), id, ${TYPE_INDEX_FILTER_COLUMNS}) WHERE vis = 2;
-- A transaction (and one type) in the price sorts across France, where the order depends on the
-- transaction: rents are hundreds of euros and sales hundreds of thousands, so the rentals with the
-- highest prices came after every sale in ix_main_price_desc, and the cheapest sales after every rental
-- in ix_main_price_asc (measured at 1M: transaction=location&sort=price_desc 20.3 ms,
-- type=maison&transaction=vente&sort=price_asc 10.0 ms, transaction=vente&sort=pricem2_asc 8.9 ms;
-- 0.08 to 0.10 ms with these). The transaction drives them only in these sorts and without a place
-- (filter-sql.ts transactionLeads): with a department its indexes are far narrower, and in the other
-- sorts the planner, without statistics, took them for the equality and sorted a whole transaction.
CREATE INDEX IF NOT EXISTS ix_main_tx_price_asc ON listings(transaction_type, ifnull(price, 1e18), id, ${TRANSACTION_INDEX_FILTER_COLUMNS}) WHERE vis = 2;
CREATE INDEX IF NOT EXISTS ix_main_tx_price_desc ON listings(transaction_type, ifnull(price, -1), id, ${TRANSACTION_INDEX_FILTER_COLUMNS}) WHERE vis = 2;
CREATE INDEX IF NOT EXISTS ix_main_tx_pricem2_asc ON listings(transaction_type, ifnull(price_per_m2, 1e18), id, ${TRANSACTION_INDEX_FILTER_COLUMNS}) WHERE vis = 2;
CREATE INDEX IF NOT EXISTS ix_main_tx_type_price_asc ON listings(transaction_type, type_norm, ifnull(price, 1e18), id, ${TRANSACTION_TYPE_INDEX_FILTER_COLUMNS}) WHERE vis = 2;
CREATE INDEX IF NOT EXISTS ix_main_tx_type_price_desc ON listings(transaction_type, type_norm, ifnull(price, -1), id, ${TRANSACTION_TYPE_INDEX_FILTER_COLUMNS}) WHERE vis = 2;
CREATE INDEX IF NOT EXISTS ix_main_tx_type_pricem2_asc ON listings(transaction_type, type_norm, ifnull(price_per_m2, 1e18), id, ${TRANSACTION_TYPE_INDEX_FILTER_COLUMNS}) WHERE vis = 2;
CREATE INDEX IF NOT EXISTS ix_all_recent ON listings(updated_at, id, ${SEARCH_INDEX_FILTER_COLUMNS}) WHERE vis >= 1;
CREATE INDEX IF NOT EXISTS ix_all_dept_recent ON listings(department, updated_at, id, ${SEARCH_INDEX_FILTER_COLUMNS}) WHERE vis >= 1;
-- Map boxes of the default (grouped) search: lat/lon and the access date in the index, so the exact
-- total of a box is counted from index entries alone (map-sql.ts).
CREATE INDEX IF NOT EXISTS ix_map ON listings(lat, lon, entered_at) WHERE vis = 2;
-- The points of the default map, from the index alone (about 250 bytes an entry; ix_map stays for the
-- exact counts, which read 7 times fewer pages from the narrow entries).
CREATE INDEX IF NOT EXISTS ix_map_points ON listings(lat, lon, entered_at, map_json) WHERE vis = 2;
-- The feed's pages from the index alone with the texts (id: what a page counts for the quotas).
CREATE INDEX IF NOT EXISTS ix_feed ON listings(changed_at, change_seq, id) WHERE active = 1;
CREATE INDEX IF NOT EXISTS ix_withdrawn ON listings(changed_at, change_seq) WHERE active = 0;
-- The listings that left the market in the window of GET /stats (stats-sql.ts): only those rows are
-- read, where no other index holds inactive listings by place and the table would be scanned whole.
CREATE INDEX IF NOT EXISTS ix_left_market ON listings(left_market_at) WHERE active = 0;
-- The same window for a department or a postal code: only the area's withdrawn listings are read,
-- where through ix_left_market a department's statistics read every listing of the window.
CREATE INDEX IF NOT EXISTS ix_left_market_dept ON listings(department, left_market_at) WHERE active = 0;
CREATE INDEX IF NOT EXISTS ix_left_market_cp ON listings(postal_code, left_market_at) WHERE active = 0;
-- A load's block candidates (listing-store.ts findBlockCandidates) from the index entries alone: the
-- listing columns the grouping reads are in the entry, and so are the site and the own surface, which
-- the clustering compares first (indexer/dedup/cluster.ts): a candidate's dedup_features row (a random
-- page of a table as big as 1.5 GB at 5M) is read only if it is compared further, and the first page of
-- its 5 KB listing row never.
CREATE INDEX IF NOT EXISTS ix_block ON listings(block_key, id, dedup_key, change_seq, entered_at, source, own_surface) WHERE active = 1;
CREATE INDEX IF NOT EXISTS ix_change_seq ON listings(change_seq);
-- What a new listing may be a relisting of (indexer/relisting.ts): the listings of its blocks that left
-- the market in the last 90 days, read from the withdrawn rows alone.
CREATE INDEX IF NOT EXISTS ix_withdrawn_block ON listings(block_key, left_market_at) WHERE active = 0;
-- The active listings of a snapshot's scope (a site, some of its departments) with their absence
-- counts, from the index entries alone (listing-store.ts activeInScope): a site of 100 000 listings
-- is read without its rows. A store made before it reads them with a scan until \`reindex\` builds it.
CREATE INDEX IF NOT EXISTS ix_scope ON listings(source, department, id, absent_loads, absent_at) WHERE active = 1;
`;

/**
 * The number of rows of `listings`, kept by two triggers so that `/health` (and the sample bootstrap)
 * read one row instead of counting the table: `count(*)` reads a whole index, which from a cold page
 * cache was most of a cold start of the API (docs/benchmarks-history.md). Kept apart from LISTINGS_SCHEMA, whose triggers a bulk load drops (write/bulk-load.ts):
 * these stay on during a bulk load (one UPDATE of a one-row table per insert). `INSERT OR REPLACE`
 * into `listings` would delete rows without firing the delete trigger; the store only upserts.
 */
export const LISTING_COUNT_TRIGGERS = `
CREATE TRIGGER IF NOT EXISTS listing_count_ai AFTER INSERT ON listings BEGIN UPDATE listing_count SET n = n + 1; END;
CREATE TRIGGER IF NOT EXISTS listing_count_ad AFTER DELETE ON listings BEGIN UPDATE listing_count SET n = n - 1; END;
`;

/**
 * `public_json` (in listing_annonces): the JSON text of the listing's Annonce (presentAnnonce with
 * default options), and `map_json` (in listings): the JSON text of its map point (presentMapPoint),
 * written at index time so result pages and maps are served without parsing and presenting each
 * document. They are used only while meta `public_json_version` equals PUBLIC_JSON_VERSION
 * (src/core/model/present.ts); a store created before a column existed gets it from its migration (schema/migrations.ts), marked stale
 * until `npm run indexer -- reindex` has written every row's texts.
 *
 * The default map reads `map_json` from the covering index ix_map_points; the maps that read rows
 * (filters the index does not hold, the R*Tree plans) find it in the narrow row.
 */
export const PUBLIC_JSON_META = 'public_json_version';

/** The CREATE TABLE statement of one table of LISTINGS_SCHEMA. */
export function schemaTable(name: string): string {
  return new RegExp(`CREATE TABLE IF NOT EXISTS ${name} \\([^;]*\\);`).exec(LISTINGS_SCHEMA)![0];
}
