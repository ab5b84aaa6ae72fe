/**
 * The SQL renderer of the engine-neutral conditions (src/core/query/filters.ts, scope.ts): the
 * filter table, the scope and the visibility as a SQLite WHERE clause, pure. Column names are those
 * of schema/tables.ts; values travel as bound parameters, but for the constants of the partial indexes.
 */
import { filterConditions as neutralFilterConditions, type Condition, type FilterName } from '../../../core/query/filters.js';
import type { ListingFilter, Scope } from '../../../core/query/query.js';
import { scopeConditions as neutralScopeConditions, siteConditions as neutralSiteConditions } from '../../../core/query/scope.js';
import type { StoredKey } from '../../../core/query/stored-keys.js';
import { areaConditions } from './geo-sql.js';
import type { Param, SqlPart } from './sql-part.js';

// Apart in read/sql-part.ts so that read/geo-sql.ts, which this module imports, can name them without importing it back.
export type { Param, SqlPart } from './sql-part.js';

/** A statement as the builders return it: its text and its bound parameters, in order. */
export interface Sql {
  sql: string;
  params: Param[];
}

/** The conditions of several parts, in order (AND). */
export function mergeParts(...parts: SqlPart[]): SqlPart {
  return { where: parts.flatMap((p) => p.where), params: parts.flatMap((p) => p.params) };
}

/** What a column's conditions may do in a statement (SQLITE_HINTS). */
interface ColumnHint {
  /**
   * false: the condition is written `+l.column`, which SQLite still tests on index entries but never
   * seeks an index by, so that a narrower condition drives the plan.
   */
  leads?: (filter: ListingFilter, options: FilterOptions) => boolean;
}

interface FilterOptions {
  /** The transaction may drive an index (see transactionLeads). */
  transactionLeads?: boolean;
}

/**
 * The column of a stored key (src/core/query/stored-keys.ts) is named after its field (`content.price`
 * is `price`, `updated_at` is `updated_at`), but for these.
 */
const COLUMNS: Partial<Record<StoredKey, string>> = { catalogue_entered_at: 'entered_at', group_sites_ahead: 'sites_ahead' };

/**
 * Keys whose values are written into the statement rather than bound: the partial indexes of
 * schema/tables.ts are declared `WHERE vis = 2` / `WHERE vis >= 1`, and SQLite uses one only when the
 * statement holds the same constant.
 */
const INLINED: ReadonlySet<StoredKey> = new Set(['vis']);

/** The rendering hints of the filter table's entries (src/core/query/filters.ts), by filter name. */
const SQLITE_HINTS: Partial<Record<string, ColumnHint>> = {
  transaction: { leads: (_filter, options) => options.transactionLeads === true },
  // A postal code or a city is far narrower than a department: with one of them the department must
  // not drive the plan (its (department, type) indexes would otherwise win on two equalities and
  // read a listing row per entry to test the postal code).
  dept: { leads: (filter) => filter.postalCode === undefined && !filter.cities?.length },
} satisfies Partial<Record<FilterName, ColumnHint>>;

export const columnOf = (key: StoredKey): string => COLUMNS[key] ?? key.replace(/^content\./, '');

/** SQLite has no booleans: a boolean key is stored 0 or 1. */
const bound = (value: string | number | boolean): Param => (typeof value === 'boolean' ? Number(value) : value);
const marks = (values: readonly unknown[]) => values.map(() => '?').join(',');

/**
 * One engine-neutral condition as SQL on the row `alias`. `lead` false: the column is written `+col`
 * (ColumnHint.leads). Full text is no condition of the statement (the text plans of text/plan.ts
 * pick where it is matched): it renders to nothing here.
 */
export function conditionSql(condition: Condition, alias = 'l', lead = true): SqlPart {
  if (condition.op === 'area') return areaConditions(condition.area, alias);
  if (condition.op === 'words') return { where: [], params: [] };
  const column = `${lead ? '' : '+'}${alias}.${columnOf(condition.key)}`;
  const inlined = INLINED.has(condition.key);
  const compare = (op: string, value: string | number | boolean): SqlPart =>
    inlined && typeof value === 'number' ? { where: [`${column} ${op} ${value}`], params: [] } : { where: [`${column} ${op} ?`], params: [bound(value)] };
  switch (condition.op) {
    case 'equals':
      return compare('=', condition.value);
    case 'oneOf':
      return { where: [`${column} IN (${marks(condition.values)})`], params: [...condition.values] };
    case 'range':
      return mergeParts(
        ...(condition.min === undefined ? [] : [compare('>=', condition.min)]),
        ...(condition.max === undefined ? [] : [compare('<=', condition.max)]),
      );
    case 'noneOf':
      // A list is stored as its values between commas (`,a,b,`: rows/listing-row.ts), so a value is found whole.
      return { where: condition.values.map(() => `instr(${alias}.${columnOf(condition.key)}, ?) = 0`), params: condition.values.map((v) => `,${v},`) };
  }
}

const conditionsSql = (conditions: readonly Condition[], alias: string): SqlPart => mergeParts(...conditions.map((c) => conditionSql(c, alias)));

/**
 * Conditions of the `/annonces` filters (without full text, which picks its own plan), rendered from
 * the filter table. `transactionLeads`: the transaction may drive an index (see transactionLeads).
 */
export function filterConditions(filter: ListingFilter, alias = 'l', options: FilterOptions = {}): SqlPart {
  return mergeParts(
    ...neutralFilterConditions(filter).map(({ entry, condition }) =>
      conditionSql(condition, alias, SQLITE_HINTS[entry.name]?.leads?.(filter, options) ?? true),
    ),
  );
}

/**
 * Whether a search's transaction should drive its plan: in a sort that has transaction indexes
 * (schema/tables.ts ix_main_tx_*) and without a place, whose indexes are narrower. Elsewhere an equality on
 * the transaction looked to SQLite (without statistics) like the best index to seek, and it then
 * sorted half the catalogue (`transaction=location&sort=surface_desc`; docs/benchmarks-history.md).
 */
export function transactionLeads(filter: ListingFilter, sortByTransaction: boolean): boolean {
  return sortByTransaction && filter.transaction !== undefined && filter.department === undefined && filter.postalCode === undefined && !filter.cities?.length;
}

/** Visibility, site eligibility and access period of a search or a map (src/core/query/scope.ts). */
export function scopeConditions(scope: Scope, grouped: boolean, alias = 'l'): SqlPart {
  return conditionsSql(neutralScopeConditions(scope, grouped), alias);
}

/** Site and access conditions for the feed and the withdrawn flow (site listings one by one). */
export function siteConditions(scope: Scope, alias = 'l'): SqlPart {
  return conditionsSql(neutralSiteConditions(scope), alias);
}

/** FTS5 query: every word must match (implicit AND); words are quoted so no FTS syntax leaks in. */
export function ftsMatchExpression(words: readonly string[]): string {
  return words.map((word) => `"${word.replace(/"/g, '""')}"`).join(' ');
}
