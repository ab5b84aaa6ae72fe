/**
 * A write-ahead journal of one batch, so that a batch is written whole or not at all, as a SQLite
 * transaction is. A bulk request is not atomic: a writer killed half-way through one leaves some
 * listings of the batch written and the rewrites of their group's other members lost; the next load
 * finds the written records unchanged and never regroups them. So each batch is first stored, gzipped,
 * as one document of the alias's state index; the bulk follows; the document is removed after it.
 * Whoever takes over a dead writer's lock replays a journal it finds before anything else: every
 * write carries its version (change_seq, external_gte), so writing a listing again is harmless.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Client } from '@elastic/elasticsearch';
import type { StoredListing } from '../../core/model/stored.js';
import { statusOf } from './errors.js';
import { stateIndexOf } from './writer-lock.js';

const JOURNAL_ID = 'batch-journal';

interface JournalDocument {
  at: number;
  listings: string;
}

/** Writes the journal of a batch; the alias's state index must exist (writer-lock.ts ensureStateIndex). */
export async function writeJournal(client: Client, alias: string, listings: readonly StoredListing[]): Promise<void> {
  const document: JournalDocument = { at: Date.now(), listings: gzipSync(JSON.stringify(listings)).toString('base64') };
  await client.index({ index: stateIndexOf(alias), id: JOURNAL_ID, document });
}

export async function clearJournal(client: Client, alias: string): Promise<void> {
  try {
    await client.delete({ index: stateIndexOf(alias), id: JOURNAL_ID });
  } catch (error) {
    if (statusOf(error) !== 404) throw error;
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
