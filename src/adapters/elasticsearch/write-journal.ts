/**
 * A write-ahead journal of one batch, so that a batch is written whole or not at all, as a SQLite
 * transaction is. A bulk request is not atomic: a writer killed half-way through one leaves some
 * listings of the batch written and the rewrites of their group's other members lost; the next load
 * finds the written records unchanged and never regroups them. So each batch is first stored, gzipped,
 * as one document of the alias's state index; the bulk follows; the document is removed after it.
 * Whoever takes over a dead writer's lock replays a journal it finds before anything else: every
 * write carries its version (change_seq, external_gte), so writing a listing again is harmless.
 */
import { promisify } from 'node:util';
import { gunzipSync, gzip } from 'node:zlib';
import type { Client } from '@elastic/elasticsearch';
import type { StoredListing } from '../../core/model/stored.js';
import { statusOf } from './errors.js';
import { stateIndexOf } from './writer-lock.js';

/** The journal's document id in the state index (one journal at a time: the writer holds the lock). */
export const JOURNAL_ID = 'batch-journal';
const gzipAsync = promisify(gzip);

interface JournalDocument {
  at: number;
  listings: string;
}

/** Which journal was written: clearing names it, so a writer never removes another's journal. */
export interface JournalVersion {
  seqNo: number;
  primaryTerm: number;
}

/** Writes the journal of a batch; the alias's state index must exist (writer-lock.ts ensureStateIndex). */
export async function writeJournal(client: Client, alias: string, listings: readonly StoredListing[]): Promise<JournalVersion> {
  // Compressed off the event loop (libuv's pool): a batch's journal took it long enough to delay the lock's renewals.
  const document: JournalDocument = { at: Date.now(), listings: (await gzipAsync(JSON.stringify(listings))).toString('base64') };
  const written = await client.index({ index: stateIndexOf(alias), id: JOURNAL_ID, document });
  return { seqNo: written._seq_no ?? -1, primaryTerm: written._primary_term ?? -1 };
}

/**
 * Removes the journal; with `version`, only if it is still that one (a writer that lost its lock
 * while its bulk ran must not remove the journal of the writer that took over).
 */
export async function clearJournal(client: Client, alias: string, version?: JournalVersion): Promise<void> {
  try {
    await client.delete({
      index: stateIndexOf(alias),
      id: JOURNAL_ID,
      ...(version ? { if_seq_no: version.seqNo, if_primary_term: version.primaryTerm } : {}),
    });
  } catch (error) {
    if (statusOf(error) !== 404 && statusOf(error) !== 409) throw error;
  }
}

/** The batch a dead writer journaled and may not have written whole, or null. */
export async function readJournal(client: Client, alias: string): Promise<StoredListing[] | null> {
  try {
    const response = await client.get<JournalDocument>({ index: stateIndexOf(alias), id: JOURNAL_ID });
    if (!response.found || !response._source) return null;
    return JSON.parse(gunzipSync(Buffer.from(response._source.listings, 'base64')).toString('utf8')) as StoredListing[];
  } catch (error) {
    if (statusOf(error) === 404) return null;
    throw error;
  }
}
