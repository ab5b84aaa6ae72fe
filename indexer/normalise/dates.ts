/**
 * Dates in the formats sites write (ISO, French numeric and long forms, epoch, RFC 2822), with
 * placeholder dates (1970-01-01) told apart from real ones.
 */
import { foldText } from '../../src/core/refdata/text.js';

export const DAY_MS = 86_400_000;
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
  janvier: 1,
  janv: 1,
  fevrier: 2,
  fevr: 2,
  fev: 2,
  mars: 3,
  avril: 4,
  avr: 4,
  mai: 5,
  juin: 6,
  juillet: 7,
  juil: 7,
  aout: 8,
  septembre: 9,
  sept: 9,
  octobre: 10,
  oct: 10,
  novembre: 11,
  nov: 11,
  decembre: 12,
  dec: 12,
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
export function anyDateMs(value: unknown): number | null {
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
const DATE_LABEL =
  /^(?:(?:annonce\s+)?(?:publiee?s?|mise?\s+a\s+jour|mis\s+en\s+ligne|en\s+ligne|modifiee?|creee?|ajoutee?|date\s+de\s+publication|depuis|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche)\b\s*(?:le|du|depuis\s+le|depuis)?\s*:?\s*)+$/;

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
