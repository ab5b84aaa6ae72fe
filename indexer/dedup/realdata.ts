/**
 * Real scraped listings, read where they lie (`../shared/realdata` beside the repository, or
 * REALDATA_DIR), turned into the raw records a collector would write. They are third parties' data
 * without a licence (except the Bien'ici castles): they are read in place by tests and by
 * `npm run dedup-eval -- --realdata`, never copied into the repository (docs/deduplication.md).
 *
 * - `levallois-2019-multiportal/`: one town crawled from 13 portals, with real cross-site duplicates;
 *   the labelled pairs of `levallois-pairs.ndjson` (ids only) are measured on it.
 * - `notaires-fr-and-locamoi/` and `bienici-castles-lobstr/`: other collectors' shapes (notaires'
 *   prose with phone numbers, rentals without description, castles with dozens of photos).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SiteCatalog, type Site } from '../../src/core/model/sites.js';

export const LEVALLOIS_FOLDER = 'levallois-2019-multiportal';
/** The labelled pairs of the Levallois crawl (docs/deduplication.md says how they were labelled). */
export const LEVALLOIS_PAIRS_FILE = fileURLToPath(new URL('./levallois-pairs.ndjson', import.meta.url));
const REPOSITORY_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Where the real data lies: REALDATA_DIR when set, else `../shared/realdata` beside the repository. */
export function realdataDir(env: Record<string, string | undefined>): string {
  return env.REALDATA_DIR ?? path.resolve(REPOSITORY_ROOT, '../shared/realdata');
}

/** RFC 4180 CSV: quoted fields may hold commas, doubled quotes and line breaks; CRLF or LF rows. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char !== '"') field += char;
      else if (text[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = false;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += char;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** The rows of a CSV file as objects keyed by its header. */
export function readCsvObjects(file: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(readFileSync(file, 'utf8'));
  return rows.filter((row) => row.length > 1).map((row) => Object.fromEntries(header.map((name, i) => [name, row[i] ?? ''])));
}

/** Portals of the Levallois crawl, as sources; those sites.json lacks are added by levalloisSites. */
const PORTALS: Record<string, string> = {
  SE_LOGER: 'seloger',
  LE_BON_COIN: 'leboncoin',
  BIEN_ICI: 'bienici',
  LOGIC_IMMO: 'logic-immo',
  PAP: 'pap',
  EXPLORIMMO: 'figaro-immo',
  PARU_VENDU: 'paruvendu',
  A_VENDRE_A_LOUER: 'avendrealouer',
  MEILLEURS_AGENTS: 'meilleursagents',
  PROPRIETES_DE_FRANCE: 'proprietesdefrance',
  BELLES_DEMEURES: 'bellesdemeures',
  LUX_RESIDENCE: 'luxresidence',
  SURFACE_PRIVEE: 'surfaceprivee',
};
const SELLER_TYPES: Record<string, string> = { AGENCY: 'agence', MANDATARY: 'mandataire', PRIVATE: 'particulier' };

/**
 * The configured sites plus the Levallois portals sites.json does not list, ranked after them: the
 * evaluation loads every row, and a site missing from the configuration would be rejected.
 */
export function levalloisSites(configured: SiteCatalog): SiteCatalog {
  const last = Math.max(...configured.sites.map((s) => s.priority));
  const extra: Site[] = Object.values(PORTALS)
    .filter((source) => !configured.has(source))
    .map((source, i) => ({ source, name: source, url: `https://www.${source}.example`, priority: last + 1 + i }));
  return new SiteCatalog([...configured.sites, ...extra]);
}

/** The Levallois crawl's CSV file in `dir` (its export name), or null when the folder is not there. */
export function levalloisFile(dir: string): string | null {
  const folder = path.join(dir, LEVALLOIS_FOLDER);
  if (!existsSync(folder)) return null;
  const csv = readdirSync(folder).find((name) => name.endsWith('.csv'));
  return csv === undefined ? null : path.join(folder, csv);
}

/**
 * One raw record per row of the Levallois crawl. Every row is taken as active: the crawl spans two
 * years, and whether a copy had left its portal by the export says nothing of whether two rows are
 * one flat. The reference is the aggregator's row id, the only one every portal's row has.
 */
export function levalloisRecords(file: string): Record<string, unknown>[] {
  return readCsvObjects(file).map((row) => ({
    source: PORTALS[row.CRAWL_SOURCE] ?? row.CRAWL_SOURCE.toLowerCase().replace(/_/g, ''),
    reference: row.ID,
    url: row.URL,
    collected_at: row.LAST_CRAWL_DATE || row.PUBLICATION_START_DATE,
    published_at: row.PUBLICATION_START_DATE,
    transaction: row.MARKETING_TYPE === 'RENT' ? 'location' : 'vente',
    type: row.PROPERTY_TYPE,
    price: row.PRICE,
    surface: row.SURFACE,
    land_surface: row.LAND_SURFACE,
    rooms: row.ROOM_COUNT,
    bedrooms: row.BEDROOM_COUNT,
    bathrooms: row.BATHROOM_COUNT,
    year_built: row.CONSTRUCTION_YEAR,
    elevator: row.ELEVATOR,
    cellar: row.CELLAR,
    description: row.DESCRIPTION,
    images: jsonList(row.IMAGES),
    seller_type: SELLER_TYPES[row.DEALER_TYPE] ?? row.DEALER_TYPE,
    seller_name: row.DEALER_NAME,
    city: row.CITY,
    postal_code: row.ZIP_CODE,
    department: row.DEPT_CODE,
  }));
}

/**
 * A Levallois record cut to what sparse collectors give (the shapes of docs/deduplication.md): no
 * title, description, bedrooms or year; the postal code in the city field, except on Leboncoin,
 * which gives the city name only. The same labelled pairs measured on these records say what the
 * grouping does when the texts that carry most of the evidence are missing.
 */
export function asSparse(record: Record<string, unknown>): Record<string, unknown> {
  const { source, reference, url, collected_at, transaction, type, price, surface, rooms, seller_type, seller_name, images, city, postal_code } = record;
  return {
    source,
    reference,
    url,
    collected_at,
    transaction,
    type,
    price,
    surface,
    rooms,
    seller_type,
    seller_name,
    images,
    city: source === 'leboncoin' ? city : postal_code,
  };
}

/** Rows of the other folders, as their collectors would have written them (rejects and redaction checks). */
export function otherRealRecords(dir: string): { folder: string; records: Record<string, unknown>[] }[] {
  const out: { folder: string; records: Record<string, unknown>[] }[] = [];
  const notaires = path.join(dir, 'notaires-fr-and-locamoi/data/annonces_raw.csv');
  if (existsSync(notaires)) {
    out.push({
      folder: 'notaires-fr-and-locamoi/data',
      records: readCsvObjects(notaires).map((row) => ({
        source: 'notaires',
        reference: row.URL.split('/').pop(),
        url: row.URL,
        collected_at: '2025-06-12T10:00:00Z',
        title: row.Titre,
        type: row.Type_Bien,
        city: row.Localisation,
        department: row.Departement,
        price: row.Prix,
        surface: row.Surface_m2,
        rooms: row.Nb_Pieces,
        description: row.Description,
      })),
    });
  }
  const locamoi = path.join(dir, 'notaires-fr-and-locamoi/locamoi');
  if (existsSync(locamoi)) {
    const rows = readdirSync(locamoi)
      .filter((name) => name.endsWith('.csv'))
      .sort()
      .flatMap((name) => readCsvObjects(path.join(locamoi, name)));
    out.push({
      folder: 'notaires-fr-and-locamoi/locamoi',
      records: rows.map((row, i) => ({
        source: 'locamoi',
        reference: `row-${i + 1}`,
        url: `https://www.locamoi.fr/annonce/${i + 1}`,
        collected_at: '2025-06-12T10:00:00Z',
        transaction: 'location',
        title: row.titre,
        type: row.type_bien,
        price: row.prix,
        surface: row.surface,
        rooms: row.pieces,
        city: row.adresse,
      })),
    });
  }
  const bienici = path.join(dir, 'bienici-castles-lobstr/data_bienici_lobstr_io.csv');
  if (existsSync(bienici)) {
    const rows = readCsvObjects(bienici);
    // The scrape's time is not in the file: its latest modification date stands for it, and for
    // the rows whose modification date is Bien'ici's placeholder (1970-01-01).
    const scraped = rows
      .map((row) => row.modification_date)
      .filter(Boolean)
      .sort()
      .at(-1);
    const collectedAt = (date: string) => (date >= '1990' ? date : scraped);
    out.push({
      folder: 'bienici-castles-lobstr',
      records: rows.map((row) => ({
        source: 'bienici',
        reference: row.reference,
        url: `https://www.bienici.com/annonce/${row.reference}`,
        collected_at: collectedAt(row.modification_date),
        published_at: row.publication_date,
        title: row.title,
        type: row.property_type,
        city: row.city,
        postal_code: row.postal_code,
        rooms: row.rooms_quantity,
        bedrooms: row.bedrooms_quantity,
        price: row.price,
        images: row.photos,
      })),
    });
  }
  return out;
}

function jsonList(text: string): string[] {
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}
