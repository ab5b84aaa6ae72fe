/**
 * ListingIndex.storeStatus and recordLoad on SQLite: counts from the listings table, the last load's
 * report and the store's versions from `meta`, the writer lock from its file beside the store.
 */
import { existsSync, readFileSync } from 'node:fs';
import { LISTING_STATUSES } from '../../../core/model/annonce.js';
import { PUBLIC_JSON_VERSION } from '../../../core/model/present.js';
import { countsByStatus, REINDEX_COMMAND, type StoreStatus, writerLockStatus } from '../../../core/ports/store-status.js';
import type { WriterIdentity } from '../../../core/ports/writer-lock.js';
import type { StatementCache } from '../../sqlite-shared/statements.js';
import { PUBLIC_JSON_META, SCHEMA_VERSION } from '../schema/tables.js';
import { writerLockFile } from '../write/writer-lock.js';

/** meta key of the last load's report. */
const LAST_LOAD = 'last_load';

export function recordSqliteLoad(statements: StatementCache, report: Record<string, unknown>, at: number): void {
  statements.get('INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)').run(LAST_LOAD, JSON.stringify({ at: new Date(at).toISOString(), report }));
}

export function sqliteStoreStatus(statements: StatementCache, file: string, groupingPending: boolean): Omit<StoreStatus, 'backend'> {
  const meta = (key: string) => (statements.get('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value ?? null;
  const counts = statements.get('SELECT status, count(*) AS n FROM listings GROUP BY status').all() as { status: string; n: number }[];
  const lastLoad = meta(LAST_LOAD);
  const behind: StoreStatus['behind'] = [];
  const schema = Number(meta('schema_version') ?? SCHEMA_VERSION);
  if (schema < SCHEMA_VERSION) behind.push({ what: `schema ${schema}, this code writes ${SCHEMA_VERSION}`, command: REINDEX_COMMAND });
  const publicJson = meta(PUBLIC_JSON_META);
  if (publicJson !== null && publicJson !== String(PUBLIC_JSON_VERSION)) {
    behind.push({ what: `stored Annonce texts of version ${publicJson}, this code presents ${PUBLIC_JSON_VERSION}`, command: REINDEX_COMMAND });
  }
  return {
    listings: countsByStatus(
      LISTING_STATUSES,
      counts.map((row) => [row.status, row.n]),
    ),
    last_load: lastLoad === null ? null : (JSON.parse(lastLoad) as StoreStatus['last_load']),
    writer_lock: lockOf(file),
    grouping_pending: groupingPending,
    behind,
  };
}

function lockOf(file: string): StoreStatus['writer_lock'] {
  const lockFile = writerLockFile(file);
  if (!existsSync(lockFile)) return null;
  try {
    return writerLockStatus(JSON.parse(readFileSync(lockFile, 'utf8')) as WriterIdentity);
  } catch {
    // Cut short by a crash while being written: no live writer wrote it whole, the next one takes it over.
    return null;
  }
}
