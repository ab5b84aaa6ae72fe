/**
 * One NDJSON line -> a normalised record, or the reason it is refused: JSON, then the raw-record
 * schema (zod), then the site list, then normalisation and redaction. Pure and clock-free, so it
 * runs the same in the load's thread or in the parse worker (parse-worker.ts); the check that needs
 * the wall clock (a record from the future) stays with the load.
 */
import { RawRecord } from './raw-record.js';
import { normaliseRecord, NormaliseError, type NormaliseContext, type NormalisedRecord } from './normalise.js';
import type { SiteCatalog } from '../src/core/model/sites.js';
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
  let raw = RawRecord.safeParse(json);
  // An optional field of the wrong shape (an object for a price, a number list for a title) is
  // dropped and counted as nulled: the record stays usable. Only the identity, the URL and the
  // collection time make a record unusable.
  const dropped = raw.success ? [] : droppableFields(json, raw.error.issues);
  if (!raw.success && dropped.length > 0) {
    const kept = { ...(json as Record<string, unknown>) };
    for (const field of dropped) delete kept[field];
    raw = RawRecord.safeParse(kept);
  }
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
    if (dropped.length > 0) record.nulled.push(...dropped);
    return cut.length > 0 ? { ok: true, record, contentHash: contentHash(record), truncated: cut } : { ok: true, record, contentHash: contentHash(record) };
  } catch (error) {
    if (error instanceof NormaliseError) return { ok: false, reason: error.message, field: error.field };
    throw error;
  }
}

const REQUIRED_FIELDS = new Set(['source', 'reference', 'url', 'collected_at']);

/** The optional top-level fields the schema refused, or none when a required one is at fault. */
function droppableFields(json: unknown, issues: readonly { path: readonly PropertyKey[] }[]): string[] {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return [];
  const fields = new Set<string>();
  for (const issue of issues) {
    const field = issue.path[0];
    if (typeof field !== 'string' || REQUIRED_FIELDS.has(field)) return [];
    fields.add(field);
  }
  return [...fields];
}
