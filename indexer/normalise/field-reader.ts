/**
 * The numeric and date fields of one record, each read with its bounds, remembering which given
 * values did not fit.
 */
import { landUnitFactor, unitFits } from '../field-values.js';
import { isAbsent } from './text.js';
import { MAX_COUNT, MAX_LAND_SURFACE, MAX_PRICE, parseNumber } from './numbers.js';
import { anyDateMs, parseDate } from './dates.js';

/**
 * Reads the numeric and date fields of one record, each as null when its value does not fit the
 * field (field-values.ts), is out of range or unreadable, and remembers which fields it nulled so
 * that the load report can count them. A placeholder ("N/A", "nc", "", 0 rooms or 0 €) is an absent
 * value, not a nulled one.
 */
export class FieldReader {
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
