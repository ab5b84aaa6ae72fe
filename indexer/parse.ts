/**
 * One NDJSON line -> a normalised record, or the reason it is refused: JSON, then the raw-record
 * schema (zod), then the site list, then normalisation and redaction. Pure and clock-free, so it
 * runs the same in the load's thread or in the parse worker (parse-worker.ts); the check that needs
 * the wall clock (a record from the future) stays with the load.
 */
import { RawRecord } from './raw-record.js';
import { normaliseRecord, NormaliseError, type NormaliseContext, type NormalisedRecord } from './normalise.js';
import type { SiteCatalog } from '../src/listings/sites.js';
import { contentHash } from './merge.js';
import { capTexts } from './text-cap.js';
import type { InputLine } from './read.js';

export type ParseOutcome =
  // contentHash: merge.ts's hash of the record, computed here so that with the parse worker it is
  // computed on the second core (a JSON text and a SHA-1 per record: 5 % of a load's main thread).
  // truncated: the text fields cut to their cap (text-cap.ts), absent when none was.
  | { ok: true; record: NormalisedRecord; contentHash: string; truncated?: string[] }
  // damaged: the input itself is damaged here (read.ts), not only this record.
  | { ok: false; reason: string; field?: string; damaged?: true };

/**
 * One input line: a damaged input (read.ts) is reported as such, and so is a last line cut before
 * its newline that does not parse (a file cut while it was written); any other line is parsed.
 */
export function parseInput(input: InputLine, sites: SiteCatalog, context: NormaliseContext): ParseOutcome {
  if (input.damage !== undefined) return { ok: false, reason: `damaged input: ${input.damage}`, damaged: true };
  const outcome = parseRecord(input.text, sites, context);
  if (!outcome.ok && input.unterminated && outcome.reason === 'invalid JSON') {
    return { ok: false, reason: 'damaged input: the last line is cut (no newline, not valid JSON)', damaged: true };
  }
  return outcome;
}

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
    const { record, cut } = capTexts(normaliseRecord(raw.data, context));
    return cut.length > 0 ? { ok: true, record, contentHash: contentHash(record), truncated: cut } : { ok: true, record, contentHash: contentHash(record) };
  } catch (error) {
    if (error instanceof NormaliseError) return { ok: false, reason: error.message, field: error.field };
    throw error;
  }
}
