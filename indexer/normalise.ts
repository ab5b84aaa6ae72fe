/**
 * Normalisation of one raw collector record (indexer/raw-record.ts) into the public content of a
 * stored listing (src/core/model/stored.ts ListingContent), as docs/indexer.md describes it, privacy
 * included. Pure: no I/O, no clock; the commune table and the site list come in through the
 * context. It runs on tens of millions of records a day,
 * so every pattern is compiled once, here.
 *
 * Messy input is expected and repaired (numbers with spaces and units, French type synonyms, DPE in
 * prose, dates in several formats, HTML descriptions, location to complete from the commune
 * table). A record that cannot be used at all throws NormaliseError naming the field, and the
 * caller writes it to the rejects file.
 */
import type { Commune, CommuneTable } from '../src/core/refdata/communes.js';
import { foldText } from '../src/core/refdata/text.js';
import type { DpeLetter, ListingStatus, PropertyType, TransactionType } from '../src/core/model/annonce.js';
import type { ListingContent } from '../src/core/model/stored.js';
import type { RawRecord } from './raw-record.js';
import { redactContacts } from './redact.js';
import { landUnitFactor, unitFits } from './field-values.js';

export interface NormaliseContext {
  communes: CommuneTable;
  /** Display name of a configured site (`sources` configuration); undefined for an unknown site. */
  siteName(source: string): string | undefined;
}

export interface NormalisedRecord {
  /** Every public Annonce field of ListingContent, in the documented order, null where unknown. */
  content: ListingContent;
  status: ListingStatus;
  /** Epoch ms of raw.collected_at. */
  collectedAt: number;
  /** Epoch ms of the publication on the source site, null when unknown. */
  publishedAt: number | null;
  /**
   * Fields the record gave a value for that did not fit (a surface written "1er étage", a bedroom
   * count in m²): stored as null and counted by the load report, so a collector whose columns
   * shifted shows up there instead of as wrong numbers.
   */
  nulled: string[];
}

export class NormaliseError extends Error {
  constructor(readonly field: string, message: string) {
    super(message);
    this.name = 'NormaliseError';
  }
}

/** The source id of listings published by the service itself (`is_internal`). */
export const INTERNAL_SOURCE = 'interne';

export function normaliseRecord(raw: RawRecord, ctx: NormaliseContext): NormalisedRecord {
  if (raw.source !== INTERNAL_SOURCE && ctx.siteName(raw.source) === undefined) {
    // Site priority decides the reference listing of a duplicate group: a site missing from the
    // `sources` configuration cannot be ranked, so its records are rejected, not guessed.
    throw new NormaliseError('source', `unknown source "${raw.source}": not in the sources configuration`);
  }
  const externalUrl = raw.url.trim();
  if (!HTTP_URL.test(externalUrl)) throw new NormaliseError('url', `url is not an http(s) URL: "${clip(externalUrl)}"`);

  const collectedAt = parseDate(raw.collected_at);
  if (collectedAt === null) throw new NormaliseError('collected_at', `unparseable collected_at "${clip(raw.collected_at)}"`);
  const fields = new FieldReader();
  let publishedAt = fields.date('published_at', raw.published_at);
  // Sites put placeholders (1970-01-01) or typos in the future; neither is a publication date.
  if (publishedAt !== null && publishedAt > collectedAt + DAY_MS) publishedAt = null;

  // Only the identity, the URL and the collection time are required: a record without a title or
  // a type (SeLoger-like collectors give neither) is stored with a type read from wherever the
  // record names it and a title built from what is known.
  const rawTitle = cleanText(raw.title);
  const rawType = textOf(raw.type);
  const description = cleanDescription(raw.description);

  const roomsField = fields.count('rooms', raw.rooms, 1);
  const typeInfo = classifyType({ type: rawType, title: rawTitle, category: textOf(raw.category), url: externalUrl, description }, roomsField === null);
  const transaction = transactionOf(raw, rawTitle);

  const price = fields.price('price', raw.price);
  const surface = fields.surface('surface', raw.surface, MAX_SURFACE);
  const rooms = roomsField ?? typeInfo.rooms;

  const place = resolvePlace(raw, ctx.communes);
  const dpe = energyClass(raw.dpe, raw.dpe_value, DPE_VALUE_UNIT);
  const ges = energyClass(raw.ges, raw.ges_value, GES_VALUE_UNIT);

  if (description !== null) {
    // Many sites only state the classes in the text ("Classe énergie : D - Classe climat : B").
    const wantDpe = dpe.letter === null && isAbsent(raw.dpe);
    const wantGes = ges.letter === null && isAbsent(raw.ges);
    if (wantDpe || wantGes) {
      const inProse = classesInProse(description);
      if (wantDpe) dpe.letter = inProse.dpe;
      if (wantGes) ges.letter = inProse.ges;
    }
  }

  const title = rawTitle !== null
    ? redactContacts(rawTitle)
    : generatedTitle(typeInfo.type, rooms, surface, place.city);

  const sellerType = sellerTypeOf(raw);
  const images = imagesOf(raw.images);

  const content: ListingContent = {
    source: raw.source,
    reference: raw.reference,
    title,
    type: typeInfo.type,
    transaction_type: transaction,
    price,
    price_per_m2: price !== null && surface !== null ? Math.round(price / surface) : null,
    // No colour rule is defined anywhere (the API gives only the type), so none is invented.
    price_per_m2_color: null,
    price_label: price === null ? null : priceLabel(price, transaction),
    surface,
    land_surface: fields.surface('land_surface', raw.land_surface, MAX_LAND_SURFACE),
    living_room_surface: fields.surface('living_room_surface', raw.living_room_surface, MAX_SURFACE),
    rooms,
    bedrooms: fields.count('bedrooms', raw.bedrooms, 0),
    bathrooms: fields.count('bathrooms', raw.bathrooms, 0),
    shower_rooms: fields.count('shower_rooms', raw.shower_rooms, 0),
    toilets: fields.count('toilets', raw.toilets, 0),
    kitchen: textOf(raw.kitchen),
    year_built: fields.year('year_built', raw.year_built),
    elevator: parseBoolean(raw.elevator),
    parking: parseBoolean(raw.parking),
    parking_interior: parseBoolean(raw.parking_interior),
    parking_exterior: parseBoolean(raw.parking_exterior),
    cellar: parseBoolean(raw.cellar),
    garden: parseBoolean(raw.garden),
    exclusive: parseBoolean(raw.exclusive),
    seller_type: sellerType,
    seller_name: sellerType === 'Pro' ? redactOrNull(textOf(raw.seller_name)) : null,
    real_estate_network: redactOrNull(textOf(raw.real_estate_network)),
    city: place.city,
    postal_code: place.postalCode,
    department: place.department,
    region: place.region,
    latitude: place.latitude,
    longitude: place.longitude,
    dpe: dpe.letter,
    ges: ges.letter,
    dpe_value: dpe.value,
    ges_value: ges.value,
    dpe_chart_url: urlOf(raw.dpe_chart_url),
    ges_chart_url: urlOf(raw.ges_chart_url),
    legal_info: legalInfoOf(raw.legal_info),
    images,
    images_count: images.length,
    description,
    external_url: externalUrl,
    video_url: urlOf(raw.video_url),
    virtual_tour_url: urlOf(raw.virtual_tour_url),
    published_at: publishedAt === null ? null : new Date(publishedAt).toISOString(),
    updated_at: new Date(collectedAt).toISOString(),
    is_internal: raw.source === INTERNAL_SOURCE || parseBoolean(raw.is_internal) === true,
  };
  return { content, status: statusOf(raw.status), collectedAt, publishedAt, nulled: fields.nulled };
}

// ---------------------------------------------------------------------------------------------
// Text

/** Values collectors write for "no value". */
const EMPTY_WORDS = new Set(['', 'n/a', 'na', 'n.a.', 'nc', 'n.c.', 'null', 'undefined', 'none', '-', '--', '?', 'non communiqué', 'non communique', 'inconnu']);
const MAX_EMPTY_WORD_LENGTH = 16;

function textOf(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const text = typeof value === 'string' ? value.trim() : String(value);
  // Placeholders are short; lower-casing a whole description to look one up would cost more.
  return text.length <= MAX_EMPTY_WORD_LENGTH && EMPTY_WORDS.has(text.toLowerCase()) ? null : text;
}

function isAbsent(value: unknown): boolean {
  return textOf(value) === null;
}

function redactOrNull(text: string | null): string | null {
  return text === null ? null : redactContacts(text);
}

function clip(value: unknown): string {
  const text = String(value);
  return text.length > 60 ? `${text.slice(0, 60)}...` : text;
}

/** A title: HTML entities and tags removed, whitespace collapsed to single spaces. */
function cleanText(value: unknown): string | null {
  let text = textOf(value);
  if (text === null) return null;
  if (mayHoldHtml(text)) text = htmlToText(text);
  text = text.replace(WHITESPACE_RUN, ' ').trim();
  return text === '' ? null : text;
}

/** A description: HTML turned into plain text with its line breaks, then contacts redacted. */
function cleanDescription(value: unknown): string | null {
  let text = textOf(value);
  if (text === null) return null;
  if (mayHoldHtml(text)) text = htmlToText(text);
  if (text.includes('\r')) text = text.replace(CARRIAGE_RETURN, '\n');
  text = redactContacts(text).trim();
  return text === '' ? null : text;
}

const HTML_HINT = /<[a-zA-Z/!]|&(?:#\d|#x[0-9a-fA-F]|[a-zA-Z]{2,8};)/;

/** Tags or entities; the plain `includes` first, because most texts have neither `<` nor `&`. */
function mayHoldHtml(text: string): boolean {
  return (text.includes('<') || text.includes('&')) && HTML_HINT.test(text);
}
const WHITESPACE_RUN = /\s+/g;
const CARRIAGE_RETURN = /\r\n?/g;
const SCRIPT_OR_STYLE = /<(script|style)\b[^<>]*>[\s\S]*?<\/\1\s?>/gi;
const HTML_COMMENT = /<!--[\s\S]*?-->/g;
/**
 * Tags that end a line of text: `<br>`, and block elements opening or closing (`<p>`, `</div>`).
 * `[^<>]*` rather than `[^>]*` in tags: an unclosed `<a` must not make every later `<` rescan the text.
 */
const LINE_BREAK_TAG = /<\s?br\s?\/?\s?>|<\/?\s?(?:p|div|li|ul|ol|h[1-6]|tr|table|blockquote|section|article)\b[^<>]*>/gi;
const ANY_TAG = /<\/?[a-zA-Z][^<>]*>/g;
const ENTITY = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z][a-zA-Z0-9]{1,31}));/g;
// Runs of spaces are collapsed first, so that trimming around line breaks needs no `*`.
const SPACE_RUN = /[ \t\u00a0]{2,}/g;
const SPACES_AROUND_NEWLINE = /[ \t\u00a0]?\n[ \t\u00a0]?/g;
const BLANK_LINES = /\n{3,}/g;
const NAMED_ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', eacute: 'é', egrave: 'è', ecirc: 'ê',
  euml: 'ë', agrave: 'à', acirc: 'â', auml: 'ä', ccedil: 'ç', icirc: 'î', iuml: 'ï', ocirc: 'ô',
  ouml: 'ö', ugrave: 'ù', ucirc: 'û', uuml: 'ü', oelig: 'œ', aelig: 'æ', Eacute: 'É', Egrave: 'È',
  Ecirc: 'Ê', Agrave: 'À', Acirc: 'Â', Ccedil: 'Ç', Ocirc: 'Ô', Icirc: 'Î', Ucirc: 'Û', OElig: 'Œ',
  laquo: '«', raquo: '»', euro: '€', sup2: '²', sup3: '³', deg: '°', hellip: '…', rsquo: '’',
  lsquo: '‘', ldquo: '“', rdquo: '”', ndash: '–', mdash: '—', middot: '·', bull: '•', times: '×',
  copy: '©', reg: '®', trade: '™', ordm: 'º', ordf: 'ª', frac12: '½', frac14: '¼', frac34: '¾',
};

function htmlToText(html: string): string {
  return html
    .replace(SCRIPT_OR_STYLE, ' ')
    .replace(HTML_COMMENT, ' ')
    .replace(LINE_BREAK_TAG, '\n')
    .replace(ANY_TAG, '')
    .replace(ENTITY, decodeEntity)
    .replace(CARRIAGE_RETURN, '\n')
    .replace(SPACE_RUN, ' ')
    .replace(SPACES_AROUND_NEWLINE, '\n')
    .replace(BLANK_LINES, '\n\n')
    .trim();
}

function decodeEntity(entity: string, decimal?: string, hex?: string, name?: string): string {
  if (name !== undefined) return NAMED_ENTITIES[name] ?? entity;
  const codePoint = decimal !== undefined ? Number(decimal) : parseInt(hex!, 16);
  if (codePoint === 160) return ' ';
  if (codePoint <= 0 || codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) return entity;
  return String.fromCodePoint(codePoint);
}

// ---------------------------------------------------------------------------------------------
// Numbers

const MAX_PRICE = 1e9;
const MAX_SURFACE = 100_000;
/** Estates with a park or a forest: up to 10 000 ha of land. */
const MAX_LAND_SURFACE = 1e8;
const MAX_COUNT = 1000;
const MAX_ENERGY_VALUE = 10_000;
/**
 * Short fields (type, city, DPE, price text) are read on their first characters only: real values
 * are a few words long, and a bounded length keeps every pattern linear on garbage input.
 */
const MAX_LABEL_LENGTH = 200;

/**
 * The first number of a text. A space (also U+00A0, U+202F, U+2009) or an apostrophe belongs to the
 * number only when exactly three digits follow it, so `1 250 000` is one number and `3 pièces 65`
 * stops at 3; dots and commas are sorted out afterwards.
 */
const NUMBER_TOKEN = /[-−]?\d(?:[\d.,]|[ \u00a0\u202f\u2009'](?=\d{3}(?!\d)))*/;
const GROUP_SPACES = /[ \u00a0\u202f\u2009']/g;
const SPACE_IN_NUMBER = /[ \u00a0\u202f\u2009']/;
const THOUSANDS_SUFFIX = /^\s*[kK]\s*(?:€|eur)/;
const MILLIONS_SUFFIX = /^\s*M\s*(?:€|eur)/;

/**
 * `"350 000 €"`, `"350.000 €"`, `"1 200 €/mois CC"`, `"45,5 m²"`, `"72.12"`, `"1,250,000"`,
 * `"327 000.00 €"`, `"350k€"`, numbers as numbers; null for `"N/A"` and text without a number.
 * A lone dot or comma followed by exactly three digits is a thousands separator (`350.000`,
 * `1,200`), otherwise a decimal one (`72.12`, `45,5`), the way French and English sites write them.
 */
export function parseNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  const match = NUMBER_TOKEN.exec(value);
  if (!match) return null;
  let token = match[0];
  const negative = token.charCodeAt(0) === 45 || token.charCodeAt(0) === 0x2212;
  if (negative) token = token.slice(1);
  const spaceGrouped = SPACE_IN_NUMBER.test(token);
  if (spaceGrouped) token = token.replace(GROUP_SPACES, '');
  token = token.replace(TRAILING_SEPARATORS, '');
  const lastDot = token.lastIndexOf('.');
  const lastComma = token.lastIndexOf(',');
  if (lastDot >= 0 && lastComma >= 0) {
    // Both: the last one is the decimal separator (`1.250.000,50`, `1,250,000.50`).
    const decimalAt = Math.max(lastDot, lastComma);
    token = token.slice(0, decimalAt).replace(SEPARATORS, '') + '.' + token.slice(decimalAt + 1);
  } else if (lastDot >= 0 || lastComma >= 0) {
    const separator = lastDot >= 0 ? '.' : ',';
    const at = Math.max(lastDot, lastComma);
    const isSingle = token.indexOf(separator) === at;
    const digitsAfter = token.length - at - 1;
    const thousands = !isSingle || (!spaceGrouped && digitsAfter === 3 && at <= 3 && token[0] !== '0');
    token = thousands ? token.replace(SEPARATORS, '') : token.slice(0, at) + '.' + token.slice(at + 1);
  }
  let number = Number(token);
  if (!Number.isFinite(number)) return null;
  const end = match.index + match[0].length;
  const rest = value.slice(end, end + 8);
  if (THOUSANDS_SUFFIX.test(rest)) number *= 1_000;
  else if (MILLIONS_SUFFIX.test(rest)) number *= 1_000_000;
  return negative ? -number : number;
}

const SEPARATORS = /[.,]/g;
const TRAILING_SEPARATORS = /[.,]+$/;

/** A number strictly above `min` and at most `max`, else null (negative, zero or absurd values). */
function numberInRange(value: unknown, min: number, max: number): number | null {
  const number = parseNumber(value);
  return number !== null && number > min && number <= max ? number : null;
}

/**
 * Reads the numeric and date fields of one record, each as null when its value does not fit the
 * field (field-values.ts), is out of range or unreadable, and remembers which fields it nulled so
 * that the load report can count them. A placeholder ("N/A", "nc", "", 0 rooms or 0 €) is an absent
 * value, not a nulled one.
 */
class FieldReader {
  readonly nulled: string[] = [];

  /** A surface in m² (land: hectares and ares converted). */
  surface(field: string, value: unknown, max: number): number | null {
    const kind = max === MAX_LAND_SURFACE ? 'land' : 'surface';
    const number = unitFits(kind, value) ? parseNumber(value) : null;
    const metres = number === null ? null : kind === 'land' ? number * landUnitFactor(value) : number;
    return this.kept(field, value, metres !== null && metres > 0 && metres <= max ? metres : null);
  }

  /** A count of rooms of some kind: a whole number within [min, MAX_COUNT] ("4.0" is 4, 2.5 is not a count). */
  count(field: string, value: unknown, min: number): number | null {
    const number = unitFits(field === 'rooms' ? 'rooms' : 'count', value) ? parseNumber(value) : null;
    const fits = number !== null && Number.isInteger(number) && number >= min && number <= MAX_COUNT;
    return this.kept(field, value, fits ? number : null);
  }

  price(field: string, value: unknown): number | null {
    const number = unitFits('price', value) ? parseNumber(value) : null;
    return this.kept(field, value, number !== null && number > 0 && number <= MAX_PRICE ? number : null);
  }

  year(field: string, value: unknown): number | null {
    const number = parseNumber(value);
    const fits = number !== null && Number.isInteger(number) && number >= 1700 && number <= 2100;
    return this.kept(field, value, fits ? number : null);
  }

  /** A date; a placeholder date (1970-01-01, the year 2200) is no date and not counted. */
  date(field: string, value: unknown): number | null {
    const ms = parseDate(value);
    return ms === null && anyDateMs(value) !== null ? null : this.kept(field, value, ms);
  }

  /** `result` for `value`; a value given but not kept is counted, unless it is a placeholder (`N/A`, `0`). */
  private kept<T>(field: string, value: unknown, result: T | null): T | null {
    if (result === null && !isAbsent(value) && typeof value !== 'boolean' && parseNumber(value) !== 0) this.nulled.push(field);
    return result;
  }
}

/** Coordinates are plain decimals (`48.873`, `"48,873"`): no thousands separator to guess. */
function parseCoordinate(value: unknown, limit: number): number | null {
  let number: number;
  if (typeof value === 'number') number = value;
  else if (typeof value === 'string' && value.trim() !== '') number = Number(value.trim().replace(',', '.'));
  else return null;
  if (!Number.isFinite(number) || number < -limit || number > limit) return null;
  return number;
}

/** 3 decimals of a degree: about 111 m, the precision the API promises for a listing's position. */
function roundCoordinate(value: number): number {
  return Math.round(value * 1000) / 1000;
}

const TRUE_WORDS = new Set(['true', 'vrai', 'oui', 'yes', 'y', 'o', '1', 'x']);
const FALSE_WORDS = new Set(['false', 'faux', 'non', 'no', 'n', '0']);

/**
 * true/false, "oui"/"non", "yes"/"no", 1/0. A positive count (`parking: 2`, two spaces) is true;
 * anything else is unknown (null).
 */
export function parseBoolean(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (value === 0) return false;
    return Number.isInteger(value) && value > 0 ? true : null;
  }
  if (typeof value !== 'string') return null;
  const word = value.trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return POSITIVE_COUNT.test(word) ? true : null;
}

const POSITIVE_COUNT = /^[1-9]\d{0,2}$/;

/** `350 000 €` for a sale, `1 200 €/mois` for a rental, grouped with U+202F like Intl fr-FR. */
export function priceLabel(price: number, transaction: TransactionType): string {
  const amount = formatFrenchNumber(price, 2, true);
  return transaction === 'location' ? `${amount} €/mois` : `${amount} €`;
}

const NARROW_NO_BREAK_SPACE = '\u202f';

/**
 * French number format: U+202F thousands separator, decimal comma, `decimals` decimals at most for
 * a non-integer (all of them kept for an amount, `612,50`, trailing zeros dropped otherwise, `45,5`).
 */
function formatFrenchNumber(value: number, decimals: number, keepTrailingZeros: boolean): string {
  const scale = 10 ** decimals;
  const rounded = Math.round(value * scale) / scale;
  let fixed = Number.isInteger(rounded) ? String(rounded) : rounded.toFixed(decimals);
  if (!keepTrailingZeros && fixed.includes('.')) fixed = fixed.replace(TRAILING_ZEROS, '');
  const [integerPart, decimalPart] = fixed.split('.');
  let grouped = '';
  for (let end = integerPart.length; end > 0; end -= 3) {
    const start = Math.max(0, end - 3);
    grouped = integerPart.slice(start, end) + (grouped === '' ? '' : NARROW_NO_BREAK_SPACE + grouped);
  }
  return decimalPart ? `${grouped},${decimalPart}` : grouped;
}

const TRAILING_ZEROS = /\.?0+$/;

// ---------------------------------------------------------------------------------------------
// Dates

const DAY_MS = 86_400_000;
/** Earlier dates are placeholders (Bien'ici writes 1970-01-01 for "unknown"), not real dates. */
const EARLIEST_DATE = Date.UTC(1990, 0, 1);
const LATEST_DATE = Date.UTC(2100, 0, 1);

/** `2025-06-12`, `2025-06-12T10:30`, `2025-06-12 10:30:00.123+02:00`, `2025/06/12`, with or without zone. */
const ISO_DATE = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)?$/i;
/** `12/06/2025`, `12-06-2025`, `12.06.2025`, optionally `10:30`, `10h30`, `à 10:30:15`. */
const FRENCH_DATE = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})(?:(?:\s+|\s*(?:à|a|-|,|T)\s*)(\d{1,2})[:hH](\d{2})(?::(\d{2}))?)?$/;
/** `12 juin 2025`, `1er juillet 2025` (text folded first). */
const FRENCH_LONG_DATE = /^(\d{1,2})(?:er)? ([a-z]+)\.? (\d{4})$/;
const FRENCH_MONTHS: Record<string, number> = {
  janvier: 1, janv: 1, fevrier: 2, fevr: 2, fev: 2, mars: 3, avril: 4, avr: 4, mai: 5, juin: 6,
  juillet: 7, juil: 7, aout: 8, septembre: 9, sept: 9, octobre: 10, oct: 10, novembre: 11, nov: 11,
  decembre: 12, dec: 12,
};
const EPOCH_DIGITS = /^\d{9,13}$/;
/** RFC 2822 (`Thu, 12 Jun 2025 10:30:00 GMT`), left to Date.parse. */
const RFC_2822 = /^[A-Za-z]{3}, \d{1,2} [A-Za-z]{3} \d{4} \d{2}:\d{2}(?::\d{2})? (?:GMT|UTC|[+-]\d{4})$/;

/**
 * Epoch milliseconds of a date in one of the formats collectors write, or null. A date without a
 * zone is read as UTC: collectors rarely say which zone they mean, and UTC keeps a bare date on
 * its own day.
 */
export function parseDate(value: unknown): number | null {
  const ms = anyDateMs(value);
  return ms !== null && ms >= EARLIEST_DATE && ms < LATEST_DATE ? ms : null;
}

/** The date a value writes, placeholders (1970-01-01) included. */
function anyDateMs(value: unknown): number | null {
  if (typeof value === 'number') return epochToMs(value);
  return typeof value === 'string' ? parseDateText(value.trim()) : null;
}

function epochToMs(value: number): number | null {
  if (!Number.isFinite(value) || value <= 0) return null;
  return value < 1e11 ? Math.round(value * 1000) : Math.round(value); // seconds or milliseconds
}

function parseDateText(text: string): number | null {
  let m = ISO_DATE.exec(text);
  if (m) {
    const ms = utcMs(+m[1], +m[2], +m[3], m[4] ? +m[4] : 0, m[5] ? +m[5] : 0, m[6] ? +m[6] : 0, m[7] ? fractionMs(m[7]) : 0);
    if (ms === null) return null;
    return ms - zoneOffsetMs(m[8]);
  }
  m = FRENCH_DATE.exec(text);
  if (m) return utcMs(+m[3], +m[2], +m[1], m[4] ? +m[4] : 0, m[5] ? +m[5] : 0, m[6] ? +m[6] : 0, 0);
  if (EPOCH_DIGITS.test(text)) return epochToMs(Number(text));
  if (RFC_2822.test(text)) {
    const ms = Date.parse(text);
    return Number.isNaN(ms) ? null : ms;
  }
  if (text.length > MAX_DATE_TEXT) return null;
  const folded = foldText(text);
  m = FRENCH_LONG_DATE.exec(folded);
  if (m && FRENCH_MONTHS[m[2]] !== undefined) return utcMs(+m[3], FRENCH_MONTHS[m[2]], +m[1], 0, 0, 0, 0);
  // "Publiée le 9 mars 2026", "Mise à jour le 12/06/2025", "lundi 9 mars 2026": the date after its label.
  const firstDigit = text.search(FIRST_DIGIT);
  if (firstDigit > 0 && DATE_LABEL.test(foldText(text.slice(0, firstDigit)))) return parseDateText(text.slice(firstDigit));
  return null;
}

const MAX_DATE_TEXT = 60;
const FIRST_DIGIT = /\d/;
/** The words before a date (text folded): the publication or update wording sites print, or a weekday. */
const DATE_LABEL = /^(?:(?:annonce\s+)?(?:publiee?s?|mise?\s+a\s+jour|mis\s+en\s+ligne|en\s+ligne|modifiee?|creee?|ajoutee?|date\s+de\s+publication|depuis|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche)\b\s*(?:le|du|depuis\s+le|depuis)?\s*:?\s*)+$/;

/** Date.UTC with every field checked, so 31/02/2025 or 25:00 are refused instead of rolled over. */
function utcMs(year: number, month: number, day: number, hour: number, minute: number, second: number, ms: number): number | null {
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const result = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  return new Date(result).getUTCDate() === day ? result : null;
}

function fractionMs(digits: string): number {
  return Math.round(Number(`0.${digits}`) * 1000);
}

function zoneOffsetMs(zone: string | undefined): number {
  if (zone === undefined || zone.length <= 3) return 0; // absent, Z, UTC, GMT
  const sign = zone[0] === '-' ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
  return sign * (hours * 60 + minutes) * 60_000;
}

// ---------------------------------------------------------------------------------------------
// Type, transaction, status, seller

/**
 * Property type words (text folded: lower case, no accents), one capture group per public type.
 * The leftmost word wins, so "Maison avec garage" is a Maison and "Garage" alone a Parking.
 * Bureau comes before Local commercial so that "local professionnel" is an office.
 */
const TYPE_WORDS = new RegExp(String.raw`\b(?:` + [
  /* 1 Appartement */ String.raw`(appartements?|appart|appt|apt|apartment|flat|studios?|studette|duplex|triplex|loft|penthouse|[tf]\d{1,2}(?:bis)?)`,
  /* 2 Maison */ String.raw`(maisons?|villas?|maison de ville|pavillons?|longere|mas|chalets?|fermes?|corps de ferme|chateaux?|castle|manoir|proprietes?|bastide|house|demeure|moulin|bergerie|hotel particulier)`,
  /* 3 Terrain */ String.raw`(terrains?|land|parcelle)`,
  /* 4 Parking */ String.raw`(parkings?|garages?|box|boxes|stationnement)`,
  /* 5 Bureau */ String.raw`(bureaux?|local professionnel|locaux professionnels)`,
  /* 6 Local commercial */ String.raw`(local commercial|locaux commerciaux|commerces?|boutiques?|fonds de commerce|murs commerciaux|local|locaux)`,
  /* 7 Immeuble */ String.raw`(immeubles?|building)`,
].join('|') + String.raw`)\b`);
const TYPE_BY_GROUP: PropertyType[] = ['Autre', 'Appartement', 'Maison', 'Terrain', 'Parking', 'Bureau', 'Local commercial', 'Immeuble'];
/** `T3`, `F4`, `T2 bis`: the French shorthand for the number of rooms. */
const ROOMS_SHORTHAND = /\b[tf](\d{1,2})(?: ?bis)?\b/;
const ROOMS_IN_WORDS = /\b(\d{1,2}) ?pieces?\b/;
const STUDIO = /\b(?:studio|studette)\b/;

interface TypeInfo { type: PropertyType; rooms: number | null }

/** Where a record may name its type, most explicit first. */
interface TypeSources {
  type: string | null;
  title: string | null;
  /** The site's category ("Ventes immobilières > Appartement"), when the collector keeps it. */
  category: string | null;
  url: string;
  description: string | null;
}

/**
 * The public type from the first of the type field, the title, the site category, the URL path
 * (`/annonces/achat/appartement/toulon-83/...`) and the description's opening words that names
 * one, else `Autre`; rooms from `T3`, `studio`, `3 pièces` in the type field or the title.
 */
function classifyType(sources: TypeSources, wantRooms: boolean): TypeInfo {
  const fromType = sources.type === null ? NO_TYPE : typeOfField(sources.type);
  let type = fromType.type;
  let rooms = wantRooms ? fromType.rooms : null;
  if (type === null || (wantRooms && rooms === null)) {
    if (sources.title !== null) {
      const foldedTitle = foldText(sources.title.length > MAX_LABEL_LENGTH ? sources.title.slice(0, MAX_LABEL_LENGTH) : sources.title);
      type ??= typeIn(foldedTitle);
      if (wantRooms) rooms ??= roomsIn(foldedTitle);
    }
  }
  if (type === null && sources.category !== null) type = typeOfField(sources.category).type;
  if (type === null) type = typeInUrl(sources.url);
  if (type === null && sources.description !== null) {
    // Only the opening words: a description names its own property first, other places later
    // ("à deux pas de la maison de santé").
    type = typeIn(foldText(sources.description.slice(0, DESCRIPTION_TYPE_CHARS)));
  }
  return { type: type ?? 'Autre', rooms };
}

const DESCRIPTION_TYPE_CHARS = 80;
const URL_PATH = /^https?:\/\/[^/?#]+([^?#]*)/i;
const URL_PATH_SEPARATORS = /[-_/.+]+/g;

/** The type a URL path names (`/achat/appartement/...`, `/ventes-maison-...`): path only, not the host. */
function typeInUrl(url: string): PropertyType | null {
  const path = URL_PATH.exec(url)?.[1];
  if (!path) return null;
  return typeIn(foldText(path.slice(0, MAX_LABEL_LENGTH).replace(URL_PATH_SEPARATORS, ' ')));
}

const NO_TYPE = { type: null, rooms: null };
/** A site uses a handful of type values for millions of records: classified once each (bounded). */
const TYPE_CACHE_SIZE = 5_000;
const typeCache = new Map<string, { type: PropertyType | null; rooms: number | null }>();

function typeOfField(rawType: string): { type: PropertyType | null; rooms: number | null } {
  let known = typeCache.get(rawType);
  if (known === undefined) {
    const folded = foldText(rawType.length > MAX_LABEL_LENGTH ? rawType.slice(0, MAX_LABEL_LENGTH) : rawType);
    known = { type: typeIn(folded), rooms: roomsIn(folded) };
    if (typeCache.size >= TYPE_CACHE_SIZE) typeCache.clear();
    typeCache.set(rawType, known);
  }
  return known;
}

/** Whole type values some sites send as identifiers (Bien'ici `castle`, `premises`...). */
const TYPE_IDS: Record<string, PropertyType> = {
  office: 'Bureau', offices: 'Bureau', premises: 'Local commercial', shop: 'Local commercial',
  townhouse: 'Maison', programme: 'Autre', parking: 'Parking',
};

function typeIn(folded: string): PropertyType | null {
  const byId = TYPE_IDS[folded];
  if (byId !== undefined) return byId;
  const match = TYPE_WORDS.exec(folded);
  if (!match) return null;
  for (let group = 1; group < TYPE_BY_GROUP.length; group++) if (match[group] !== undefined) return TYPE_BY_GROUP[group];
  return null;
}

function roomsIn(folded: string): number | null {
  const shorthand = ROOMS_SHORTHAND.exec(folded) ?? ROOMS_IN_WORDS.exec(folded);
  if (shorthand) {
    const rooms = Number(shorthand[1]);
    return rooms >= 1 ? rooms : null;
  }
  return STUDIO.test(folded) ? 1 : null;
}

const RENTAL_WORDS = String.raw`location|locations|louer|loue|rent|rental|for rent|to let|lease|loyer|bail`;
const SALE_WORDS = String.raw`vente|ventes|vendre|vend|achat|acheter|sale|for sale|sell|buy|viager|cession`;
/** Leftmost transaction word of the (folded) transaction field: group 1 rental, group 2 sale. */
const TRANSACTION_WORDS = new RegExp(String.raw`\b(?:(${RENTAL_WORDS})|(${SALE_WORDS}))\b`);
/** Price text of a rent: `1 200 €/mois CC`, `850 € HC`, `loyer 700 €`, `£900 pcm`. */
const RENT_PRICE = /\/\s*mois|par mois|mensuel|\bcc\b|\bhc\b|charges? comprises?|hors charges|loyer|\/\s*month|per month|\bpcm\b/i;
/** Site URLs carry the transaction as a path segment: `/annonce-immo/vente/appartement/...`. */
const RENT_URL = /\/(?:location|locations|louer|a-louer|rent|rental|to-rent)(?:[/-]|$)/i;
const SALE_URL = /\/(?:vente|ventes|achat|acheter|a-vendre|sale|for-sale|buy)(?:[/-]|$)/i;
/** A title that opens with the transaction: "Location appartement...", "Achat :Maison...". */
const RENT_TITLE = /^(?:location|a louer|louer)\b/;
const SALE_TITLE = /^(?:vente|achat|a vendre)\b/;

/** The transaction field, else the price text, else the URL path, else the title's first word, else vente. */
function transactionOf(raw: RawRecord, title: string | null): TransactionType {
  const field = textOf(raw.transaction);
  if (field !== null) {
    const match = TRANSACTION_WORDS.exec(foldText(field.slice(0, MAX_LABEL_LENGTH)));
    if (match) return match[1] !== undefined ? 'location' : 'vente';
  }
  if (typeof raw.price === 'string' && RENT_PRICE.test(raw.price.slice(0, MAX_LABEL_LENGTH))) return 'location';
  if (RENT_URL.test(raw.url)) return 'location';
  if (SALE_URL.test(raw.url)) return 'vente';
  if (title !== null) {
    const foldedTitle = foldText(title.slice(0, 20));
    if (RENT_TITLE.test(foldedTitle)) return 'location';
    if (SALE_TITLE.test(foldedTitle)) return 'vente';
  }
  return 'vente';
}

/** Status words (folded), in the order they are tried; unknown or absent is `active`. */
const STATUS_RULES: [RegExp, ListingStatus][] = [
  [/\b(?:sous compromis|compromis|sous offre|offre acceptee|under offer|under contract|sous_compromis)\b/, 'sous_compromis'],
  // A rented listing leaves the market like a sold one; the API has no separate state for it.
  [/\b(?:vendu|vendue|sold|loue|louee|rented|let agreed)\b/, 'vendue'],
  [/\b(?:archive|archivee|archived|expire|expiree|expired)\b/, 'archivee'],
  [/\b(?:retire|retiree|withdrawn|removed|supprime|supprimee|deleted|off market|desactive|desactivee|inactive)\b/, 'retiree'],
];

export function statusOf(value: unknown): ListingStatus {
  const text = textOf(value);
  if (text === null) return 'active';
  const folded = foldText(text.slice(0, MAX_LABEL_LENGTH));
  for (const [pattern, status] of STATUS_RULES) if (pattern.test(folded)) return status;
  return 'active';
}

const PRIVATE_SELLER = /\b(?:particulier|particuliers|private|owner|proprietaire|individual|pap)\b/;
const PRO_SELLER = /\b(?:pro|professionnel|professionnelle|professional|agence|agency|agent|notaire|notaires|notarial|mandataire|promoteur|constructeur|reseau|network)\b/;
/** Names that only a business carries, to class a seller whose type the site did not give. */
const AGENCY_NAME = /\b(?:agence|immobilier|immobiliere|immo|notaire|notaires|notarial|office|cabinet|sarl|sas|sasu|eurl|sci|groupe|transactions?|realty|properties|property|century 21|orpi|foncia|laforet|guy hoquet|era|iad|safti|capifrance|nestenn|stephane plaza|square habitat|citya|sotheby s|barnes|engel volkers)\b/;

/** `Pro` or `Particulier`; a seller without a type is a Pro when its name or network says so. */
function sellerTypeOf(raw: RawRecord): 'Pro' | 'Particulier' | null {
  const field = textOf(raw.seller_type);
  if (field !== null) {
    const folded = foldText(field.slice(0, MAX_LABEL_LENGTH));
    if (PRIVATE_SELLER.test(folded)) return 'Particulier';
    if (PRO_SELLER.test(folded)) return 'Pro';
    return null;
  }
  if (textOf(raw.real_estate_network) !== null) return 'Pro';
  const name = textOf(raw.seller_name);
  return name !== null && AGENCY_NAME.test(foldText(name.slice(0, MAX_LABEL_LENGTH))) ? 'Pro' : null;
}

// ---------------------------------------------------------------------------------------------
// Energy classes (DPE, GES)

const DPE_VALUE_UNIT = /(\d+(?:[.,]\d+)?)\s*kwh/i;
const GES_VALUE_UNIT = /(\d+(?:[.,]\d+)?)\s*kg/i;
/** What sites write when there is no class: blank diagnosis, not subject to it, in progress. */
const NO_CLASS = /vierge|non soumis|non requis|non communiqu|non disponible|non r[ée]alis|en cours|inconnu|\bnc\b|\bn\/?a\b|blank|exempt|\b[àa]\s+(?:venir|faire|r[ée]aliser|fournir)\b/i;
/** The field is only the letter, possibly followed by its value: `D`, `d`, `D (245 kWh/m².an)`. */
const LEADING_CLASS = /^\s*\(?([a-gA-G])(?![\p{L}\p{N}])/u;
/**
 * A letter after a label, in prose: `Classe énergie : D`, `DPE: d`, `GES en C`, `classe climat B`.
 * Lower-cased but not folded, so `énergie à 245` is not read as class A.
 */
const LABELLED_CLASS = /(?:classe|dpe|ges|[ée]nergie|[ée]nerg[ée]tique|climat|[ée]tiquette|lettre|note)(?:\s{0,3}(?:[ée]nergie|[ée]nerg[ée]tique|climat|ges|dpe|classe|class[ée]e?|:|=|-|est|en)){0,4}\s{0,3}\(?([a-g])(?![\p{L}\p{N}])/u;

interface EnergyClass { letter: DpeLetter | null; value: number | null }

/**
 * DPE or GES from its letter field (`"D"`, `"Classe énergie : D (245 kWh/m².an)"`, `"DPE: vierge"`)
 * and its value field; the value is read from the letter's prose when the value field is absent.
 */
function energyClass(field: unknown, valueField: unknown, valueUnit: RegExp): EnergyClass {
  let value = numberInRange(valueField, 0, MAX_ENERGY_VALUE);
  let letter: DpeLetter | null = null;
  if (typeof field === 'number') {
    if (value === null && field > 0 && field <= MAX_ENERGY_VALUE) value = field;
    return { letter, value };
  }
  const fieldText = textOf(field);
  if (fieldText === null) return { letter, value };
  const text = fieldText.length > MAX_LABEL_LENGTH ? fieldText.slice(0, MAX_LABEL_LENGTH) : fieldText;
  if (!NO_CLASS.test(text)) {
    const match = LEADING_CLASS.exec(text) ?? LABELLED_CLASS.exec(text.toLowerCase());
    if (match) letter = match[1].toUpperCase() as DpeLetter;
  }
  if (value === null) {
    const unit = valueUnit.exec(text);
    if (unit) value = numberInRange(unit[1], 0, MAX_ENERGY_VALUE);
    else if (letter === null && BARE_NUMBER.test(text)) value = numberInRange(text, 0, MAX_ENERGY_VALUE);
  }
  return { letter, value };
}

const BARE_NUMBER = /^\s*\d+(?:[.,]\d+)?\s*$/;

/**
 * Classes stated in a description, with their label right before the letter: group 1 is a DPE
 * label (`Classe énergie : D`, `DPE en D`, `le DPE classé C`), group 2 a GES one (`Classe climat B`,
 * `GES : C`). One scan finds both. The letter must be a capital (or follow a colon), and not open
 * a phrase such as "A venir", so that "le DPE a été réalisé" is not read as class A.
 */
const CLASS_IN_PROSE = /(?:(classe\s+(?:d['’]\s*)?[ée]nerg(?:ie|[ée]tique)|\bDPE|[ée]tiquette\s+[ée]nerg(?:ie|[ée]tique))|(classe\s+climat|\bGES|classe\s+(?:d['’]\s*)?[ée]missions?(?:\s+de\s+gaz\s+[àa]\s+effet\s+de\s+serre)?|[ée]tiquette\s+climat))(?:\s{0,3}(?::|=|-|en|est|class[ée]e?|\(nouvelle formule\))){0,4}\s{0,3}\b([A-G])\b(?!\s+(?:venir|faire|r[ée]aliser|fournir|jour|[ée]t[ée])\b)/gi;

function classesInProse(description: string): { dpe: DpeLetter | null; ges: DpeLetter | null } {
  let dpe: DpeLetter | null = null;
  let ges: DpeLetter | null = null;
  CLASS_IN_PROSE.lastIndex = 0;
  for (let match = CLASS_IN_PROSE.exec(description); match !== null && (dpe === null || ges === null); match = CLASS_IN_PROSE.exec(description)) {
    const letter = match[3];
    const isCapital = letter >= 'A' && letter <= 'G';
    if (!isCapital && !match[0].includes(':')) continue;
    if (match[1] !== undefined) dpe ??= letter.toUpperCase() as DpeLetter;
    else ges ??= letter.toUpperCase() as DpeLetter;
  }
  return { dpe, ges };
}

// ---------------------------------------------------------------------------------------------
// Location

interface Place {
  city: string | null;
  postalCode: string | null;
  department: string | null;
  region: string | null;
  latitude: number | null;
  longitude: number | null;
}

const POSTAL_CODE_IN_TEXT = /(?<!\d)(\d{5})(?!\d)/;
const POSTAL_CODE_SPACED = /^(\d{2})\s(\d{3})$/;
const PARENTHESES = /\(([^()]*)\)/g;
const DEPARTMENT_CODE = /^(?:\d{2,3}|2[ABab])$/;
const DEPARTMENT_IN_PARENTHESES = /\(([0-9]{1,3}|2[ABab])\)/;
const FOUR_DIGITS = /^\d{4}$/;
const ONE_DIGIT = /^\d$/;
const CITY_PARTS = /\s+-\s+|\s*[,;/|]\s*/;
const CITY_TRIM = /^[\s\-–,.;:]+|[\s\-–,.;:]+$/g;
const COUNTRY = /^(?:france|fr)$/i;
/** A street address, not a city: starts with a number or names a kind of street. */
const STREET = /^\d|\b(?:rue|avenue|av|bd|boulevard|chemin|all[ée]e|place|impasse|route|square|quai|cours|r[ée]sidence|lotissement)\b/i;
/** `Paris 8`, `Paris 8e`, `Lyon 3ème`, `Marseille 13e arrondissement`, `Paris 1er`. */
const ARRONDISSEMENT = /^(paris|lyon|marseille)\s*(\d{1,2})\s*(?:er|e|eme|ème|è|°)?(?:\s*arr(?:ondissement|\.)?)?$/i;
const ARRONDISSEMENT_PREFIX: Record<string, { prefix: string; count: number }> = {
  paris: { prefix: '750', count: 20 },
  lyon: { prefix: '6900', count: 9 },
  marseille: { prefix: '130', count: 16 },
};

/** Folded commune names, computed once per commune and only when a prefix match is needed. */
const foldedCommuneNames = new WeakMap<Commune, string>();
function foldedName(commune: Commune): string {
  let folded = foldedCommuneNames.get(commune);
  if (folded === undefined) {
    folded = foldText(commune.name);
    foldedCommuneNames.set(commune, folded);
  }
  return folded;
}

/**
 * City, postal code, department, region and position, completed and corrected from the commune
 * table: the postal code's communes give the official city name; a lone commune fills a missing
 * city; an unambiguous city fills the postal code; the department comes from the communes and the
 * region from the department; a missing position is the commune's centre.
 */
function resolvePlace(raw: RawRecord, communes: CommuneTable): Place {
  const located = locate(raw, communes);
  let latitude = parseCoordinate(raw.latitude, 90);
  let longitude = parseCoordinate(raw.longitude, 180);
  // Null Island (0, 0) is what a failed geocoder writes, not a French listing.
  if (latitude === null || longitude === null || (latitude === 0 && longitude === 0)) {
    latitude = located.centre?.lat ?? null;
    longitude = located.centre?.lon ?? null;
    if (latitude === null || longitude === null) latitude = longitude = null;
  }
  return {
    city: located.city,
    postalCode: located.postalCode,
    department: located.department,
    region: located.region,
    latitude: latitude === null ? null : roundCoordinate(latitude),
    longitude: longitude === null ? null : roundCoordinate(longitude),
  };
}

/** Where a record is, before its own coordinates: the same inputs always give the same answer. */
interface Located {
  city: string | null;
  postalCode: string | null;
  department: string | null;
  region: string | null;
  centre: Commune | null;
}

/**
 * Cities and postal codes repeat across millions of records, and resolving one costs several
 * table look-ups with text folding: answers are memoised per commune table, in a map that is
 * emptied when it reaches LOCATION_CACHE_SIZE entries, so memory stays bounded.
 */
const LOCATION_CACHE_SIZE = 50_000;
const locationCaches = new WeakMap<CommuneTable, Map<string, Located>>();

function locate(raw: RawRecord, communes: CommuneTable): Located {
  let cache = locationCaches.get(communes);
  if (cache === undefined) {
    cache = new Map();
    locationCaches.set(communes, cache);
  }
  const key = `${raw.city ?? ''}\u0000${raw.postal_code ?? ''}\u0000${raw.department ?? ''}\u0000${raw.region ?? ''}`;
  let located = cache.get(key);
  if (located === undefined) {
    located = locateUncached(raw, communes);
    if (cache.size >= LOCATION_CACHE_SIZE) cache.clear();
    cache.set(key, located);
  }
  return located;
}

function locateUncached(raw: RawRecord, communes: CommuneTable): Located {
  const fullCityText = textOf(raw.city);
  const cityText = fullCityText !== null && fullCityText.length > MAX_LABEL_LENGTH ? fullCityText.slice(0, MAX_LABEL_LENGTH) : fullCityText;
  let postalCode = postalCodeOf(raw.postal_code);
  let departmentHint = departmentCodeOf(raw.department);
  let candidates: string[] = [];

  if (cityText !== null) {
    // "Paris 8 (75008)", "- Paris 8 - Paris (75)", "75008 Paris", "Lyon, Rhône".
    let rest = cityText;
    if (rest.includes('(')) {
      rest = rest.replace(PARENTHESES, (_all, inside: string) => {
        const code = inside.trim();
        if (POSTAL_CODE_IN_TEXT.test(code) && code.length === 5) postalCode ??= code;
        else if (DEPARTMENT_CODE.test(code)) departmentHint ??= departmentCodeOf(code);
        return ' ';
      });
    }
    // "4 Square Auguste Renoir, 75014 Paris, France": the part holding the postal code names the
    // city, so it is tried first; street addresses and the country are only tried last or dropped.
    const streets: string[] = [];
    for (const part of rest.split(CITY_PARTS)) {
      let name = part;
      const codeInText = POSTAL_CODE_IN_TEXT.exec(name);
      if (codeInText) {
        postalCode ??= codeInText[1];
        name = name.replace(codeInText[1], ' ');
      }
      name = name.replace(CITY_TRIM, '');
      if (name === '' || COUNTRY.test(name)) continue;
      if (codeInText) candidates.unshift(name);
      else if (STREET.test(name)) streets.push(name);
      else candidates.push(name);
    }
    candidates.push(...streets);
    // "Paris 8e" names an arrondissement: its postal code, and the commune "Paris".
    candidates = candidates.map((name) => {
      const arrondissement = ARRONDISSEMENT.exec(name);
      if (!arrondissement) return name;
      const { prefix, count } = ARRONDISSEMENT_PREFIX[arrondissement[1].toLowerCase()];
      const number = Number(arrondissement[2]);
      if (number >= 1 && number <= count) postalCode ??= prefix + String(number).padStart(5 - prefix.length, '0');
      return arrondissement[1];
    });
  }

  let commune: Commune | null = null;
  let sameDepartment: string | null = null;
  /** Centre of a commune known by name only, when all its postal codes share it (Nice, Toulouse). */
  let sharedCentre: Commune | null = null;
  let officialName: string | null = null;
  const postalCommunes = postalCode === null ? [] : communes.byPostalCode(postalCode);

  if (postalCommunes.length > 0) {
    commune = communeOfPostalCode(postalCommunes, candidates, communes);
    if (commune === null) sameDepartment = commonDepartment(postalCommunes);
  } else {
    for (const name of candidates) {
      let matches = communes.byName(name);
      if (matches.length === 0) continue;
      if (departmentHint !== null && matches.length > 1) {
        const inDepartment = matches.filter((c) => c.department === departmentHint);
        if (inDepartment.length > 0) matches = inDepartment;
      }
      const first = matches[0];
      officialName = first.name;
      if (matches.every((c) => c.postalCode === first.postalCode && c.insee === first.insee)) {
        commune = first;
        // A postal code unknown to the table (a typo, a CEDEX) gives way to the commune's.
        postalCode = commune.postalCode;
      } else {
        sameDepartment = commonDepartment(matches);
        // Paris, Lyon and Marseille rows carry their arrondissement's centre: no single centre.
        if (matches.every((c) => c.insee === first.insee && c.lat === first.lat && c.lon === first.lon)) sharedCentre = first;
      }
      break;
    }
  }

  let department = commune?.department ?? sameDepartment;
  if (department === null && postalCode !== null) department = departmentOfPostalCode(postalCode, communes);
  if (department === null && departmentHint !== null && communes.departmentName(departmentHint) !== undefined) department = departmentHint;
  const region = (department === null ? undefined : communes.regionOfDepartment(department)) ?? textOf(raw.region);

  return {
    city: commune?.name ?? officialName ?? candidates[0] ?? null,
    postalCode,
    department,
    region,
    centre: commune ?? sharedCentre,
  };
}

/** The commune of a known postal code that the city text names, or the postal code's only commune. */
function communeOfPostalCode(postalCommunes: readonly Commune[], candidates: string[], communes: CommuneTable): Commune | null {
  for (const name of candidates) {
    const byName = communes.byName(name);
    for (const commune of byName) if (commune.postalCode === postalCommunes[0].postalCode) return commune;
  }
  // "Aix-en-Provence Centre", "Hellemmes-Lille": the commune name with a district around it;
  // "Montignac" for Montignac-Lascaux: a short form of the name. Only one commune may fit.
  for (const name of candidates) {
    const words = ` ${foldText(name)} `;
    let found: Commune | null = null;
    let count = 0;
    for (const commune of postalCommunes) {
      const communeWords = ` ${foldedName(commune)} `;
      if (words.includes(communeWords) || communeWords.startsWith(words)) {
        found = commune;
        count++;
      }
    }
    if (count === 1) return found;
  }
  // No city, or a locality the table does not know (a hamlet, a district): the only commune.
  return postalCommunes.length === 1 ? postalCommunes[0] : null;
}

function commonDepartment(list: readonly Commune[]): string | null {
  const department = list[0].department;
  return list.every((c) => c.department === department) ? department : null;
}

/** `75008`, `"75 008"`, `6000` (a number that lost its leading zero), `"75008 Paris"`. */
function postalCodeOf(value: unknown): string | null {
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || value < 1000 || value > 99999) return null;
    return String(value).padStart(5, '0');
  }
  const text = textOf(value);
  if (text === null) return null;
  if (FOUR_DIGITS.test(text)) return `0${text}`;
  const spaced = POSTAL_CODE_SPACED.exec(text);
  if (spaced) return spaced[1] + spaced[2];
  const match = POSTAL_CODE_IN_TEXT.exec(text);
  return match ? match[1] : null;
}

/** `75`, `2A`, `971`, `1` -> `01`, `"Paris (75)"`. Names are not resolved (the table has no index). */
function departmentCodeOf(value: unknown): string | null {
  const text = textOf(value);
  if (text === null) return null;
  const inParentheses = DEPARTMENT_IN_PARENTHESES.exec(text);
  const code = (inParentheses ? inParentheses[1] : text).toUpperCase();
  if (ONE_DIGIT.test(code)) return `0${code}`;
  return DEPARTMENT_CODE.test(code) ? code : null;
}

/** Department of a postal code the table does not list (CEDEX): the first 2 digits, 3 overseas. */
function departmentOfPostalCode(postalCode: string, communes: CommuneTable): string | null {
  const candidate = postalCode.startsWith('97') || postalCode.startsWith('98') ? postalCode.slice(0, 3) : postalCode.slice(0, 2);
  return communes.departmentName(candidate) !== undefined ? candidate : null;
}

// ---------------------------------------------------------------------------------------------
// Title, images, URLs, legal info

/** "Appartement 3 pièces 65 m² à Lyon" from what is known. */
function generatedTitle(type: PropertyType, rooms: number | null, surface: number | null, city: string | null): string {
  let title = type === 'Autre' ? 'Bien' : type;
  if (rooms !== null) title += ` ${rooms} ${rooms > 1 ? 'pièces' : 'pièce'}`;
  if (surface !== null) title += ` ${formatFrenchNumber(surface, 2, false)} m²`;
  if (city !== null) title += ` à ${city}`;
  return title;
}

const HTTP_URL = /^https?:\/\/[^\s/?#]+/i;
/** Collectors join photo URLs with `|`, `,`, `;` or whitespace; a comma inside a URL (CDN resize
 * parameters like `w_300,h_200`) is kept, only one followed by the next URL splits. */
const IMAGE_SEPARATOR = /[|\s]+|[,;]\s*(?=(?:https?:)?\/\/)/i;
const URL_TRAILING_PUNCTUATION = /[,;]+$/;

function imagesOf(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  const pieces = typeof value === 'string' ? value.split(IMAGE_SEPARATOR) : Array.isArray(value) ? value : [];
  const images: string[] = [];
  const seen = new Set<string>();
  for (const piece of pieces) {
    if (typeof piece !== 'string') continue;
    for (const part of typeof value === 'string' ? [piece] : piece.split(IMAGE_SEPARATOR)) {
      let url = part.replace(URL_TRAILING_PUNCTUATION, '');
      if (url.startsWith('//')) url = `https:${url}`;
      if (HTTP_URL.test(url) && !seen.has(url)) {
        seen.add(url);
        images.push(url);
      }
    }
  }
  return images;
}

function urlOf(value: unknown): string | null {
  const text = textOf(value);
  if (text === null) return null;
  const url = text.startsWith('//') ? `https:${text}` : text;
  return HTTP_URL.test(url) ? url : null;
}

const CONTACT_KEY = /phone|t[ée]l[ée]?phone|\btel\b|mail|contact|portable|mobile|fax/i;

/** Legal information as given, a text or an object, with contact data taken out of it. */
function legalInfoOf(value: RawRecord['legal_info']): string | Record<string, unknown> | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') {
    const text = cleanText(value);
    return text === null ? null : redactContacts(text);
  }
  const info: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (CONTACT_KEY.test(key)) continue;
    info[key] = typeof entry === 'string' ? redactContacts(entry) : entry;
  }
  return Object.keys(info).length > 0 ? info : null;
}
