/**
 * One writer at a time per store. The indexer numbers its writes itself (change_seq, from the
 * store's highest at its start), so two loads at once would give equal numbers and one would
 * overwrite the other's changes. Every writing command (load, dedup --rebuild, reindex) takes the
 * store's writer lock first; a second one is refused with who holds it and since when.
 *
 * A lock whose holder died (killed, crashed) is taken over. How death is told is the engine's: a
 * SQLite store is a file on one machine, whose holder's process is checked directly (pid and its
 * start time, so a reused pid is not mistaken for the holder); an Elasticsearch alias is written
 * from many machines, so its lock is a lease judged by its renewals alone (writer-lock.ts there).
 */
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

export interface WriterLock {
  /** Who holds it, as stored (host, pid, start). */
  readonly holder: WriterIdentity;
  release(): Promise<void>;
}

export interface WriterLockRequest {
  /**
   * The earliest `changed_at` this writer may write (its clock at start). Until it releases the lock,
   * readers that must not see a change late (the feed, on an engine where writes become visible
   * later) stop below it.
   */
  changesFrom: number;
}

export interface WriterIdentity {
  host: string;
  pid: number;
  /** Start time of the process in clock ticks since boot (/proc/<pid>/stat field 22); null off Linux. */
  process_start: number | null;
  boot_id: string | null;
  since: string;
}

export class WriterBusyError extends Error {
  constructor(
    readonly storeName: string,
    readonly holder: WriterIdentity,
  ) {
    super(
      `${storeName} is being written by another indexer (pid ${holder.pid} on ${holder.host}, since ${holder.since}); ` +
        'wait for it to finish or stop it: two writers at once would number their changes alike',
    );
    this.name = 'WriterBusyError';
  }
}

function readOrNull(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** Start time of a process, or null when it does not exist (or this is not Linux). */
export function processStart(pid: number): number | null {
  const stat = readOrNull(`/proc/${pid}/stat`);
  if (stat === null) return null;
  // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const start = Number(fields[19]);
  return Number.isFinite(start) ? start : null;
}

export function currentIdentity(now = new Date()): WriterIdentity {
  return {
    host: hostname(),
    pid: process.pid,
    process_start: processStart(process.pid),
    boot_id: readOrNull('/proc/sys/kernel/random/boot_id')?.trim() ?? null,
    since: now.toISOString(),
  };
}

/**
 * Whether the holder's process still runs: true or false when it ran on this machine since its last
 * boot (checked directly), null when that cannot be known here (another host).
 */
export function holderAlive(holder: WriterIdentity, here: WriterIdentity = currentIdentity()): boolean | null {
  if (holder.host !== here.host) return null;
  if (holder.boot_id !== null && here.boot_id !== null && holder.boot_id !== here.boot_id) return false;
  const start = processStart(holder.pid);
  if (start === null) return false;
  return holder.process_start === null || start === holder.process_start;
}

/**
 * A writer that lost its lock: it could not renew it for the lease time (the cluster out of reach,
 * the process stopped or starved), or found it taken over. It must not write again: another writer
 * may hold the lock now and number its changes alike. The indexer exits with its own code.
 */
export class WriterFencedError extends Error {
  constructor(storeName: string, reason: string) {
    super(
      `${storeName}: this writer lost its lock (${reason}) and stopped before its next write; the writer that took over, or the next load, finishes the work`,
    );
    this.name = 'WriterFencedError';
  }
}

/** Runs `work` holding the writer lock of `store`, released whatever happens. */
export async function withWriterLock<T>(
  store: { acquireWriterLock(request: WriterLockRequest): Promise<WriterLock> },
  request: WriterLockRequest,
  work: () => Promise<T>,
): Promise<T> {
  const lock = await store.acquireWriterLock(request);
  try {
    return await work();
  } finally {
    await lock.release();
  }
}
