/**
 * The writer lock of an Elasticsearch alias (src/core/ports/writer-lock.ts): one document in a small
 * index of its own, `<alias>-state`, created with `op_type: create` (a second writer gets a
 * conflict) and changed only with `if_seq_no`/`if_primary_term` (compare-and-set), so two writers
 * racing for a dead holder's lock cannot both win.
 *
 * The holder renews `heartbeat_at` every few seconds. The lock is dead when its holder's process is
 * gone (same machine) or, for a holder on another machine, when its heartbeat is older than
 * STALE_AFTER_MS. A dead lock is what a killed load leaves, with its index refreshing never (a load
 * sets `refresh_interval: -1`): whoever finds it (the next load, the API at start or in the feed)
 * restores the interval, refreshes, then removes the lock.
 */
import type { Client } from '@elastic/elasticsearch';
import { currentIdentity, holderAlive, WriterBusyError, type WriterIdentity, type WriterLock, type WriterLockRequest } from '../../core/ports/writer-lock.js';
import { errorTypeOf, statusOf } from './errors.js';

export const HEARTBEAT_MS = 5_000;
export const STALE_AFTER_MS = 60_000;
const LOCK_ID = 'writer';

export interface LockDocument {
  holder: WriterIdentity;
  changes_from: number;
  heartbeat_at: number;
}

export interface LockState {
  document: LockDocument;
  seqNo: number;
  primaryTerm: number;
}

/**
 * The small index of an alias's writer state: the writer lock, and the mark of a grouping still owed
 * (listing-store.ts groupingPending).
 */
export const stateIndexOf = (alias: string): string => `${alias}-state`;

/** A write's version, which the next compare-and-set names (always present on a successful write). */
function versionOf(written: { _seq_no?: number; _primary_term?: number }): { seqNo: number; primaryTerm: number } {
  return { seqNo: written._seq_no ?? -1, primaryTerm: written._primary_term ?? -1 };
}

export async function readLock(client: Client, alias: string): Promise<LockState | null> {
  try {
    const response = await client.get<LockDocument>({ index: stateIndexOf(alias), id: LOCK_ID });
    if (!response.found || !response._source) return null;
    return { document: response._source, seqNo: response._seq_no!, primaryTerm: response._primary_term! };
  } catch (error) {
    if (statusOf(error) === 404) return null;
    throw error;
  }
}

export function lockIsDead(lock: LockDocument, now = Date.now()): boolean {
  const alive = holderAlive(lock.holder);
  return alive === null ? now - lock.heartbeat_at > STALE_AFTER_MS : !alive;
}

export async function ensureStateIndex(client: Client, alias: string): Promise<void> {
  try {
    await client.indices.create({
      index: stateIndexOf(alias),
      settings: { index: { number_of_shards: 1, auto_expand_replicas: '0-1' } },
      mappings: { dynamic: false, properties: { heartbeat_at: { type: 'date', format: 'epoch_millis' } } },
    });
  } catch (error) {
    if (errorTypeOf(error) !== 'resource_already_exists_exception') throw error;
  }
}

/** Removes a lock if it is still the one read (a newer holder's lock is left alone). */
export async function removeLock(client: Client, alias: string, state: LockState): Promise<void> {
  try {
    await client.delete({ index: stateIndexOf(alias), id: LOCK_ID, if_seq_no: state.seqNo, if_primary_term: state.primaryTerm });
  } catch (error) {
    if (statusOf(error) !== 404 && statusOf(error) !== 409) throw error;
  }
}

/**
 * Takes the lock, or throws WriterBusyError while a live writer holds it. A dead holder's lock is
 * taken over; `onTakeOver` runs first (the store restores what the dead load left behind), and the
 * new lock keeps the older `changes_from`, since the dead load's writes may not be visible yet.
 */
export async function acquireElasticsearchWriterLock(
  client: Client,
  alias: string,
  request: WriterLockRequest,
  onTakeOver: () => Promise<void>,
): Promise<WriterLock> {
  await ensureStateIndex(client, alias);
  const holder = currentIdentity();
  const document: LockDocument = { holder, changes_from: request.changesFrom, heartbeat_at: Date.now() };
  let state: { seqNo: number; primaryTerm: number };
  try {
    const created = await client.create({ index: stateIndexOf(alias), id: LOCK_ID, document });
    state = versionOf(created);
  } catch (error) {
    if (statusOf(error) !== 409) throw error;
    const existing = await readLock(client, alias);
    if (existing && !lockIsDead(existing.document)) throw new WriterBusyError(`alias ${alias}`, existing.document.holder);
    if (existing) {
      await onTakeOver();
      document.changes_from = Math.min(document.changes_from, existing.document.changes_from);
    }
    try {
      const taken = await client.index({
        index: stateIndexOf(alias),
        id: LOCK_ID,
        document,
        ...(existing ? { if_seq_no: existing.seqNo, if_primary_term: existing.primaryTerm } : { op_type: 'create' as const }),
      });
      state = versionOf(taken);
    } catch (raced) {
      if (statusOf(raced) !== 409) throw raced;
      const winner = await readLock(client, alias);
      throw new WriterBusyError(`alias ${alias}`, winner?.document.holder ?? holder);
    }
  }

  let lost: Error | null = null;
  // The renewal in flight, awaited before the release so the release compares the latest version.
  let beating: Promise<void> = Promise.resolve();
  const heartbeat = setInterval(() => {
    document.heartbeat_at = Date.now();
    beating = client
      .index({ index: stateIndexOf(alias), id: LOCK_ID, document, if_seq_no: state.seqNo, if_primary_term: state.primaryTerm })
      .then((r) => {
        state = versionOf(r);
      })
      .catch((error: unknown) => {
        if (statusOf(error) === 409) lost = new Error(`the writer lock of alias ${alias} was taken over`);
      });
  }, HEARTBEAT_MS);
  heartbeat.unref();
  return {
    holder,
    async release() {
      clearInterval(heartbeat);
      await beating;
      if (lost) throw lost;
      await removeLock(client, alias, { document, ...state });
    },
  };
}
