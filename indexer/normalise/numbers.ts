/**
 * Numbers as collectors write them (`350 000 €`, `45,5 m²`, `1.2M€`), booleans, coordinates, the
 * bounds every numeric field is checked against, and the French price label.
 */
import type { TransactionType } from '../../src/core/model/annonce.js';

export const MAX_PRICE = 1e9;
export const MAX_SURFACE = 100_000;
/** Estates with a park or a forest: up to 10 000 ha of land. */
export const MAX_LAND_SURFACE = 1e8;
export const MAX_COUNT = 1000;
export const MAX_ENERGY_VALUE = 10_000;
/**
 * Short fields (type, city, DPE, price text) are read on their first characters only: real values
 * are a few words long, and a bounded length keeps every pattern linear on garbage input.
 */
export const MAX_LABEL_LENGTH = 200;

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
    token = `${token.slice(0, decimalAt).replace(SEPARATORS, '')}.${token.slice(decimalAt + 1)}`;
  } else if (lastDot >= 0 || lastComma >= 0) {
    const separator = lastDot >= 0 ? '.' : ',';
    const at = Math.max(lastDot, lastComma);
    const isSingle = token.indexOf(separator) === at;
    const digitsAfter = token.length - at - 1;
    const thousands = !isSingle || (!spaceGrouped && digitsAfter === 3 && at <= 3 && token[0] !== '0');
    token = thousands ? token.replace(SEPARATORS, '') : `${token.slice(0, at)}.${token.slice(at + 1)}`;
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
export function numberInRange(value: unknown, min: number, max: number): number | null {
  const number = parseNumber(value);
  return number !== null && number > min && number <= max ? number : null;
}

/** Coordinates are plain decimals (`48.873`, `"48,873"`): no thousands separator to guess. */
export function parseCoordinate(value: unknown, limit: number): number | null {
  let number: number;
  if (typeof value === 'number') number = value;
  else if (typeof value === 'string' && value.trim() !== '') number = Number(value.trim().replace(',', '.'));
  else return null;
  if (!Number.isFinite(number) || number < -limit || number > limit) return null;
  return number;
}

/** 3 decimals of a degree: about 111 m, the precision the API promises for a listing's position. */
export function roundCoordinate(value: number): number {
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
export function formatFrenchNumber(value: number, decimals: number, keepTrailingZeros: boolean): string {
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
