/**
 * Pure translation of the engine-neutral filter and scope to a SQLite WHERE clause.
 * Column names are those of schema.ts; values always travel as bound parameters.
 */
import type { ListingFilter, Scope } from '../../core/query/query.js';
import { areaConditions } from './geo-sql.js';

export type Param = string | number;

export interface SqlPart {
  where: string[];
  params: Param[];
}

/** A statement as the builders return it: its text and its bound parameters, in order. */
export interface Sql {
  sql: string;
  params: Param[];
}

/** The conditions of several parts, in order (AND). */
export function mergeParts(...parts: SqlPart[]): SqlPart {
  return { where: parts.flatMap((p) => p.where), params: parts.flatMap((p) => p.params) };
}

/**
 * Conditions of the `/annonces` filters (without full text, which picks its own plan).
 * `transactionLeads`: the transaction may drive an index (see transactionLeads); otherwise its term
 * is written `+l.transaction_type`, which SQLite still tests on index entries but never seeks by.
 */
export function filterConditions(filter: ListingFilter, alias = 'l', options: { transactionLeads?: boolean } = {}): SqlPart {
  const where: string[] = [];
  const params: (string | number)[] = [];
  const c = (column: string) => `${alias}.${column}`;
  const inList = (column: string, values: readonly string[]) => {
    where.push(`${c(column)} IN (${values.map(() => '?').join(',')})`);
    params.push(...values);
  };
  const range = (column: string, min: number | undefined, max: number | undefined) => {
    if (min !== undefined) {
      where.push(`${c(column)} >= ?`);
      params.push(min);
    }
    if (max !== undefined) {
      where.push(`${c(column)} <= ?`);
      params.push(max);
    }
  };
  if (filter.types?.length) inList('type_norm', filter.types);
  if (filter.transaction) {
    where.push(`${options.transactionLeads ? '' : '+'}${c('transaction_type')} = ?`);
    params.push(filter.transaction);
  }
  if (filter.cities?.length) inList('city_norm', filter.cities);
  if (filter.postalCode) {
    where.push(`${c('postal_code')} = ?`);
    params.push(filter.postalCode);
  }
  if (filter.department) {
    // A postal code or a city is far narrower than a department: with one of them the department must
    // not drive the plan (its (department, type) indexes would otherwise win on two equalities and
    // read a listing row per entry to test the postal code). The unary + keeps SQLite from using the
    // term in an index; the condition is the same.
    const narrower = filter.postalCode !== undefined || (filter.cities?.length ?? 0) > 0;
    where.push(`${narrower ? '+' : ''}${c('department')} = ?`);
    params.push(filter.department);
  }
  if (filter.region) {
    where.push(`${c('region_norm')} = ?`);
    params.push(filter.region);
  }
  range('price', filter.priceMin, filter.priceMax);
  range('price_per_m2', filter.pricePerM2Min, filter.pricePerM2Max);
  range('surface', filter.surfaceMin, filter.surfaceMax);
  range('rooms', filter.roomsMin, undefined);
  range('bedrooms', filter.bedroomsMin, undefined);
  // A NULL year never satisfies >= or <=, so unknown years are excluded by these filters (docs/api.md).
  range('year_built', filter.yearMin, filter.yearMax);
  if (filter.dpe?.length) inList('dpe', filter.dpe);
  if (filter.ges?.length) inList('ges', filter.ges);
  if (filter.updatedSince !== undefined) {
    where.push(`${c('updated_at')} >= ?`);
    params.push(filter.updatedSince);
  }
  if (filter.createdSince !== undefined) {
    where.push(`${c('published_at')} >= ?`);
    params.push(filter.createdSince);
  }
  if (filter.relisted !== undefined) {
    where.push(`${c('relisted')} = ?`);
    params.push(filter.relisted ? 1 : 0);
  }
  if (filter.area) {
    const area = areaConditions(filter.area, alias);
    where.push(...area.where);
    params.push(...area.params);
  }
  return { where, params };
}

/**
 * Whether a search's transaction should drive its plan: in a sort that has transaction indexes
 * (schema.ts ix_main_tx_*) and without a place, whose indexes are narrower. Elsewhere an equality on
 * the transaction looked to SQLite (without statistics) like the best index to seek, and it then
 * sorted half the catalogue (`transaction=location&sort=surface_desc`; docs/benchmarks-history.md).
 */
export function transactionLeads(filter: ListingFilter, sortByTransaction: boolean): boolean {
  return sortByTransaction && filter.transaction !== undefined && filter.department === undefined && filter.postalCode === undefined && !filter.cities?.length;
}

/**
 * Site eligibility and access period. Grouped: a listing is returned when its site is eligible and no
 * better-ranked site of its group is (docs/deduplication.md); without a site filter that is `vis = 2`.
 */
export function scopeConditions(scope: Scope, grouped: boolean, alias = 'l'): SqlPart {
  const where: string[] = [];
  const params: (string | number)[] = [];
  const eligible = scope.eligibleSites;
  if (grouped && eligible === null) where.push(`${alias}.vis = 2`);
  else where.push(`${alias}.vis >= 1`);
  where.push(`${alias}.entered_at >= ?`);
  params.push(scope.enteredFrom);
  if (eligible !== null) {
    where.push(`${alias}.source IN (${eligible.map(() => '?').join(',')})`);
    params.push(...eligible);
    if (grouped) {
      for (const site of eligible) {
        where.push(`instr(${alias}.sites_ahead, ?) = 0`);
        params.push(`,${site},`);
      }
    }
  }
  return { where, params };
}

/** Site and access conditions for the feed and the withdrawn flow (site listings one by one). */
export function siteConditions(scope: Scope, alias = 'l'): SqlPart {
  const where = [`${alias}.entered_at >= ?`];
  const params: (string | number)[] = [scope.enteredFrom];
  if (scope.eligibleSites !== null) {
    where.push(`${alias}.source IN (${scope.eligibleSites.map(() => '?').join(',')})`);
    params.push(...scope.eligibleSites);
  }
  return { where, params };
}

/** FTS5 query: every word must match (implicit AND); words are quoted so no FTS syntax leaks in. */
export function ftsMatchExpression(words: readonly string[]): string {
  return words.map((word) => `"${word.replace(/"/g, '""')}"`).join(' ');
}
