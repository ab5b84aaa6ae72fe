/**
 * Small named zod schemas for query parameters, composed by each route's schema. Query values arrive
 * as strings (or arrays of strings when repeated); a repeated single-valued parameter is a 400.
 */
import { z } from 'zod';
import { DPE_LETTERS, type DpeLetter } from '../../../core/model/annonce.js';

const single = 'given more than once; must be given once, as a string';

/**
 * One of a few values. A repeated parameter (an array) is "given more than once", not "must be one
 * of" values it may well be. An enum schema still (the OpenAPI document lists its values).
 */
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T, message: string) =>
  z.enum(values, { error: (issue) => (Array.isArray(issue.input) ? single : message) });

/** A text parameter with a maximum length (trimmed; empty means absent). */
export const text = (max: number) =>
  z
    .string(single)
    .trim()
    .max(max, `at most ${max} characters`)
    .optional()
    .transform((v) => (v ? v : undefined));

/** An integer parameter within bounds. */
export const integer = (min: number, max: number) =>
  z
    .string(single)
    .trim()
    .regex(/^[+-]?\d{1,15}$/, 'must be an integer')
    .transform(Number)
    .pipe(z.number().int().min(min, `must be >= ${min}`).max(max, `must be <= ${max}`))
    .optional();

/** A decimal parameter (`45.5` or `45,5`) within bounds. */
export const decimal = (min: number, max: number) =>
  z
    .string(single)
    .trim()
    .regex(/^[+-]?\d{1,15}([.,]\d{1,6})?$/, 'must be a number')
    .transform((v) => Number(v.replace(',', '.')))
    .pipe(z.number().min(min, `must be >= ${min}`).max(max, `must be <= ${max}`))
    .optional();

/** ISO 8601 date or date-time; returns epoch milliseconds. */
export const isoDateTime = z
  .string(single)
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/, 'must be an ISO 8601 date-time, e.g. 2026-11-01T00:00:00Z')
  .transform((v, ctx) => {
    const ms = Date.parse(v.length === 10 ? `${v}T00:00:00Z` : v);
    // Date.parse rolls a day the month lacks over into the next month (2026-02-30 -> 2 March).
    if (Number.isNaN(ms) || !isCalendarDate(v.slice(0, 10))) {
      ctx.addIssue({ code: 'custom', message: 'is not a valid date' });
      return z.NEVER;
    }
    return ms;
  })
  .optional();

/** Whether `yyyy-mm-dd` names a day of the calendar. */
function isCalendarDate(date: string): boolean {
  const [year, month, day] = date.split('-').map(Number);
  const parsed = new Date(Date.UTC(year, month - 1, day));
  return parsed.getUTCFullYear() === year && parsed.getUTCMonth() === month - 1 && parsed.getUTCDate() === day;
}

/** `dpe=A&dpe=B` or `dpe=A,B` (case-insensitive). */
export const letterList = z
  .union([z.string(), z.array(z.string()).max(20, 'repeated too many times')], { error: 'must be letters A to G' })
  .transform((v, ctx) => {
    const letters = (Array.isArray(v) ? v : [v])
      .flatMap((s) => s.split(','))
      .map((s) => s.trim().toUpperCase())
      .filter(Boolean);
    const wrong = letters.filter((l) => !(DPE_LETTERS as readonly string[]).includes(l));
    if (wrong.length) {
      ctx.addIssue({ code: 'custom', message: `must be letters A to G (got ${wrong.slice(0, 3).join(', ').slice(0, 40)})` });
      return z.NEVER;
    }
    return [...new Set(letters)] as DpeLetter[];
  })
  .optional();

/** Comma-separated list with a maximum count. */
export const commaList = (maxLength: number, maxItems: number) =>
  z
    .string(single)
    .max(maxLength, `at most ${maxLength} characters`)
    .transform((v, ctx) => {
      const items = v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      if (items.length > maxItems) {
        ctx.addIssue({ code: 'custom', message: `at most ${maxItems} values` });
        return z.NEVER;
      }
      return items;
    })
    .optional()
    .transform((v) => (v?.length ? v : undefined));

export const pageSize = (fallback: number) => integer(1, 100).transform((v) => v ?? fallback);

export const cursor = z
  .string(single)
  .max(500, 'at most 500 characters')
  .optional()
  .transform((v) => (v ? v : undefined));

/** Site filters (docs/api.md "Rules of each endpoint"); resolved against the catalogue later. */
export const siteFilterParams = {
  sources: commaList(2000, 100),
  exclude_sources: commaList(2000, 100),
};
