/**
 * What `npm run indexer -- status` reports of a listings store, the same on every engine
 * (ListingIndex.storeStatus): an operator's answer, in one command, to "what state is it in, and is
 * anything to be done".
 */
import type { ListingStatus } from '../model/annonce.js';
import { holderAlive, type WriterIdentity } from './writer-lock.js';

export interface StoreStatus {
  backend: string;
  /** Site listings by catalogue status, every status present (0 when none). */
  listings: { total: number; by_status: Record<ListingStatus, number> };
  /** The last load that ran to its end: when it ended and its report (ListingIndex.recordLoad). */
  last_load: { at: string; report: Record<string, unknown> } | null;
  /** The writer lock, when a writer holds it or left it behind. */
  writer_lock: WriterLockStatus | null;
  /** A first build's grouping did not complete: the next load groups the whole store at its end. */
  grouping_pending: boolean;
  /** What in the store is older than this code, each with the command that brings it up to date; empty when nothing is. */
  behind: { what: string; command: string }[];
}

export interface WriterLockStatus {
  holder: WriterIdentity;
  age_seconds: number;
  /** Whether the holder still runs: null when that cannot be known from here (another machine). */
  alive: boolean | null;
}

export function writerLockStatus(holder: WriterIdentity, now = Date.now()): WriterLockStatus {
  return { holder, age_seconds: Math.max(0, Math.round((now - Date.parse(holder.since)) / 1000)), alive: holderAlive(holder) };
}

/** The command that brings a store written by older code up to date, on either engine. */
export const REINDEX_COMMAND = 'npm run indexer -- reindex';

/** Counts by status with every status present. */
export function countsByStatus(statuses: readonly ListingStatus[], counts: Iterable<[string, number]>): StoreStatus['listings'] {
  const byStatus = Object.fromEntries(statuses.map((status) => [status, 0])) as Record<ListingStatus, number>;
  let total = 0;
  for (const [status, count] of counts) {
    if (status in byStatus) byStatus[status as ListingStatus] = count;
    total += count;
  }
  return { total, by_status: byStatus };
}

/**
 * A store too old for what was asked of it (an Elasticsearch index made from an older mapping file
 * cannot keep a field the code writes): nothing was written; `REINDEX_COMMAND` brings it up to date.
 * The indexer exits 5 (fix it before retrying: a retry fails alike).
 */
export class StoreBehindError extends Error {
  constructor(what: string) {
    super(`${what}: run \`${REINDEX_COMMAND}\` first`);
    this.name = 'StoreBehindError';
  }
}
