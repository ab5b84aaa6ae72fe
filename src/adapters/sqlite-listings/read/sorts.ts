/**
 * Sort keys of the five sorts. Unknown values sort last whatever the direction, so the key is an
 * expression with a sentinel (the matching expression indexes are in schema/tables.ts). The unique `id`
 * is the tiebreaker of every sort: without it, keyset pages would skip or repeat equal keys.
 */
import type { SortName } from '../../../core/query/query.js';

export interface SortSpec {
  expression: string;
  descending: boolean;
  /** A (transaction, key) and a (transaction, type, key) index exist (schema/tables.ts ix_main_tx_*): the price sorts. */
  byTransaction: boolean;
  /** Reads the sort key of a result row (same value as `expression`). */
  keyOf(row: { updated_at: number; price: number | null; surface: number | null; price_per_m2: number | null }): number;
}

const LAST_ASC = 1e18;
const LAST_DESC = -1;

export const SORT_SPECS: Record<SortName, SortSpec> = {
  recent: { expression: 'l.updated_at', descending: true, byTransaction: false, keyOf: (r) => r.updated_at },
  // The expressions are written exactly as in the indexes of schema/tables.ts: SQLite matches an ORDER BY
  // to an expression index only when the expressions are identical, and `${1e18}` would render as
  // the integer literal 1000000000000000000, not the real 1e18 of the index (a full sort then).
  price_asc: { expression: 'ifnull(l.price, 1e18)', descending: false, byTransaction: true, keyOf: (r) => r.price ?? LAST_ASC },
  price_desc: { expression: `ifnull(l.price, ${LAST_DESC})`, descending: true, byTransaction: true, keyOf: (r) => r.price ?? LAST_DESC },
  surface_desc: { expression: `ifnull(l.surface, ${LAST_DESC})`, descending: true, byTransaction: false, keyOf: (r) => r.surface ?? LAST_DESC },
  pricem2_asc: { expression: 'ifnull(l.price_per_m2, 1e18)', descending: false, byTransaction: true, keyOf: (r) => r.price_per_m2 ?? LAST_ASC },
};
