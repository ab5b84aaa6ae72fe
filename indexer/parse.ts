/**
 * One NDJSON line -> a normalised record, or the reason it is refused: JSON, then the raw-record
 * schema (zod), then the site list, then normalisation and redaction. Pure and clock-free, so it
 * runs the same in the load's thread or in the parse worker (parse-worker.ts); the check that needs
 * the wall clock (a record from the future) stays with the load.
 */
import { RawRecord } from './raw-record.js';
import { normaliseRecord, NormaliseError, type NormaliseContext, type NormalisedRecord } from './normalise.js';
import type { SiteCatalog } from '../src/listings/sites.js';

export type ParseOutcome =
  | { ok: true; record: NormalisedRecord }
  | { ok: false; reason: string; field?: string };

export function parseRecord(text: string, sites: SiteCatalog, context: NormaliseContext): ParseOutcome {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'invalid JSON' };
  }
  const raw = RawRecord.safeParse(json);
  if (!raw.success) {
    const issue = raw.error.issues[0];
    const where = issue.path.join('.');
    return { ok: false, reason: `invalid record: ${where || 'record'}: ${issue.message}`, field: where || undefined };
  }
  if (!sites.has(raw.data.source)) {
    return { ok: false, reason: `unknown site "${raw.data.source}" (not in src/config/sites.json)`, field: 'source' };
  }
  try {
    return { ok: true, record: normaliseRecord(raw.data, context) };
  } catch (error) {
    if (error instanceof NormaliseError) return { ok: false, reason: error.message, field: error.field };
    throw error;
  }
}
