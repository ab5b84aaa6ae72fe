/**
 * The writer lock of an Elasticsearch alias (src/core/ports/writer-lock.ts): one document in a small
 * index of its own, `<alias>-state`, created with `op_type: create` (a second writer gets a
 * conflict) and changed only with `if_seq_no`/`if_primary_term` (compare-and-set), so two writers
 * racing for a dead holder's lock cannot both win.
 *
 * A lease, not a clock comparison. The holder renews the document several times per lease; a writer
 * finding the lock watches it, on its own monotonic clock, and takes it over only when it has not
 * changed (its `_seq_no`) for a whole lease. The holder counts the lease from the moment it SENT its
 * last successful renewal, so it stops writing (fenced: WriterFencedError) no later than a watcher
 * can take over. No host name, pid or wall clock of another machine is trusted.
 *
 * What a dead holder left (a journaled batch, refreshes off) is undone by the writer taking over,
 * never by a reader: the API may read with a read-only role, and the holder may only be paused.
 */
import type { Client } from '@elastic/elasticsearch';
import { performance } from 'node:perf_hooks';
import {
  currentIdentity,
  WriterBusyError,
  WriterFencedError,
  type WriterIdentity,
  type WriterLock,
  type WriterLockRequest,
} from '../../core/ports/writer-lock.js';
import { errorTypeOf, statusOf } from './errors.js';

/** How long a holder may go without renewing its lock (ES_WRITER_LEASE_SECONDS). */
export const DEFAULT_LEASE_MS = 60_000;
/** Renewals per lease: a few may fail (a slow cluster) before the holder is fenced. */
const RENEWALS_PER_LEASE = 12;
const LOCK_ID = 'writer';

export interface LockDocument {
  holder: WriterIdentity;
  changes_from: number;
  /** The holder's wall clock at its last renewal: for operators (lock age alert), never compared. */
  heartbeat_at: number;
  /** The holder's lease; absent from locks written before leases (DEFAULT_LEASE_MS). */
  lease_ms?: number;
}

/** A held lock that knows whether it may still write. */
export interface FencedWriterLock extends WriterLock {
  /** Throws WriterFencedError once the lock could not be renewed for its lease, or was taken over. */
  assertHeld(): void;
}

export interface LockTiming {
  leaseMs?: number;
  /** Monotonic milliseconds (tests pass their own). */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
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

/**
 * Watches a lock found held: BUSY as soon as it changes (its holder renews it), the lock as last read
 * once it stayed unchanged for its whole lease (its holder is dead or fenced), null if it went away.
 */
async function watchLock(client: Client, alias: string, found: LockState, timing: Required<LockTiming>): Promise<LockState | null> {
  const lease = found.document.lease_ms ?? DEFAULT_LEASE_MS;
  const started = timing.now();
  let last = found;
  while (timing.now() - started < lease) {
    // Twice per renewal period: a live holder is seen renewing within one period or so.
    await timing.sleep(Math.min(lease / (2 * RENEWALS_PER_LEASE), Math.max(0, lease - (timing.now() - started))));
    const current = await readLock(client, alias);
    if (current === null) return null;
    if (current.seqNo !== last.seqNo) throw new WriterBusyError(`alias ${alias}`, current.document.holder);
    last = current;
  }
  return last;
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
 * Takes the lock, or throws WriterBusyError while a live writer holds it (seen renewing it while
 * watched, for up to its lease). A silent holder's lock is taken over by compare-and-set, and only
 * the winner then runs `onTakeOver` (the store replays what the dead load left), its own renewals
 * already going; the new lock keeps the older `changes_from`, since the dead load's writes may not
 * be visible yet.
 */
export async function acquireElasticsearchWriterLock(
  client: Client,
  alias: string,
  request: WriterLockRequest,
  onTakeOver: () => Promise<void>,
  lockTiming: LockTiming = {},
): Promise<FencedWriterLock> {
  const timing: Required<LockTiming> = {
    leaseMs: lockTiming.leaseMs ?? DEFAULT_LEASE_MS,
    now: lockTiming.now ?? (() => performance.now()),
    sleep: lockTiming.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
  };
  await ensureStateIndex(client, alias);
  const holder = currentIdentity();
  const document: LockDocument = { holder, changes_from: request.changesFrom, heartbeat_at: Date.now(), lease_ms: timing.leaseMs };
  let state: { seqNo: number; primaryTerm: number } | null = null;
  let renewedAt = timing.now();
  let tookOver = false;
  while (state === null) {
    renewedAt = timing.now();
    try {
      state = versionOf(await client.create({ index: stateIndexOf(alias), id: LOCK_ID, document }));
      break;
    } catch (error) {
      if (statusOf(error) !== 409) throw error;
    }
    const found = await readLock(client, alias);
    const silent = found && (await watchLock(client, alias, found, timing));
    if (!silent) continue; // released meanwhile: try to create it again
    document.changes_from = Math.min(document.changes_from, silent.document.changes_from);
    renewedAt = timing.now();
    try {
      state = versionOf(
        await client.index({ index: stateIndexOf(alias), id: LOCK_ID, document, if_seq_no: silent.seqNo, if_primary_term: silent.primaryTerm }),
      );
      tookOver = true;
    } catch (raced) {
      if (statusOf(raced) !== 409) throw raced;
      const winner = await readLock(client, alias);
      throw new WriterBusyError(`alias ${alias}`, winner?.document.holder ?? holder);
    }
  }
  let held = state;

  let lost: string | null = null;
  let renewalError: unknown = null;
  // The renewal in flight, awaited before the release so the release compares the latest version.
  let beating: Promise<void> | null = null;
  const renew = () => {
    if (beating || lost) return;
    const sentAt = timing.now();
    document.heartbeat_at = Date.now();
    beating = client
      .index({ index: stateIndexOf(alias), id: LOCK_ID, document, if_seq_no: held.seqNo, if_primary_term: held.primaryTerm })
      .then(
        (r) => {
          held = versionOf(r);
          renewedAt = sentAt;
          renewalError = null;
        },
        (error: unknown) => {
          if (statusOf(error) === 409) lost = 'taken over by another writer';
          else {
            // Told once per run of failures; the fence (assertHeld) acts on them.
            if (renewalError === null)
              process.emitWarning(`could not renew the writer lock of alias ${alias}: ${String(error)}`, { code: 'ANNONCES_ES_LOCK_RENEWAL' });
            renewalError = error;
          }
        },
      )
      .finally(() => {
        beating = null;
      });
  };
  const heartbeat = setInterval(renew, timing.leaseMs / RENEWALS_PER_LEASE);
  heartbeat.unref();
  const assertHeld = () => {
    if (lost === null && timing.now() - renewedAt >= timing.leaseMs) {
      const why = renewalError instanceof Error ? `: ${renewalError.message}` : '';
      lost = `not renewed for ${Math.round(timing.leaseMs / 1000)} s${why}`;
    }
    if (lost !== null) throw new WriterFencedError(`alias ${alias}`, lost);
  };
  const lock: FencedWriterLock = {
    holder,
    assertHeld,
    async release() {
      clearInterval(heartbeat);
      await beating;
      assertHeld();
      await removeLock(client, alias, { document, ...held });
    },
  };
  if (tookOver) {
    try {
      await onTakeOver();
    } catch (error) {
      await lock.release().catch(() => {});
      throw error;
    }
  }
  return lock;
}
