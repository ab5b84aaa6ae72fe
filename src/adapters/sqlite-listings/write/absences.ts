/**
 * The snapshot loads' reads and writes on SQLite (ListingIndex.activeInScope, recordAbsences): a
 * scope's active listings from the entries of ix_scope (schema/tables.ts), and the absence counts as two
 * columns, written without touching the rest of the row.
 */
import type { Absence, SnapshotScope } from '../../../core/ports/listing-index.js';
import type { StatementCache } from '../../sqlite-shared/statements.js';

/** The active listings of the scope with their counts. */
export function activeInScope(statements: StatementCache, scope: SnapshotScope): Map<string, Absence> {
  const departments = scope.departments;
  const where = departments === null ? '' : ` AND department IN (${departments.map(() => '?').join(', ')})`;
  const rows = statements
    .get(`SELECT id, absent_loads, absent_at FROM listings WHERE active = 1 AND source = ?${where}`)
    .raw(true)
    .all(scope.source, ...(departments ?? [])) as [string, number, number][];
  return new Map(rows.map(([id, loads, at]) => [id, { loads, at }]));
}

/** Each count on its listing's row, only while that listing is active (the caller runs it in a write transaction). */
export function writeAbsences(statements: StatementCache, counts: ReadonlyMap<string, Absence>): void {
  const update = statements.get('UPDATE listings SET absent_loads = ?, absent_at = ? WHERE id = ? AND active = 1');
  for (const [id, { loads, at }] of counts) update.run(loads, loads > 0 ? at : 0, id);
}
