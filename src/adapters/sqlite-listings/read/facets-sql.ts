/**
 * Facets on SQLite (src/core/query/facets.ts): one GROUP BY statement per facet, over the search's
 * conditions without the facet's own, and one count of the whole query. Pure builders; exact.
 */
import type { ListingFilter } from '../../../core/query/query.js';
import { facetRanges, facetScope, withoutOwnFilter, type FacetName, type FacetsQuery } from '../../../core/query/facets.js';
import { filterConditions, mergeParts, scopeConditions, type Sql } from './filter-sql.js';
import { withText, type TextChoice } from '../text/choice.js';

/** The full-text plan of a filter (the store's TextPlanner), asked once per statement. */
export type ChooseText = (filter: ListingFilter) => TextChoice | null;

const VALUE_COLUMNS: Record<Exclude<FacetName, 'prix' | 'surface'>, string> = {
  type: 'l.type_norm',
  pieces: 'l.rooms',
  dpe: 'l.dpe',
  source: 'l.source',
};

/** The facet's key of a row: its value, or the index of its range; NULL when unknown. */
function keyExpression(name: FacetName, filter: ListingFilter): string {
  if (name !== 'prix' && name !== 'surface') return VALUE_COLUMNS[name];
  const column = name === 'prix' ? 'l.price' : 'l.surface';
  // Ranges are given as numbers of the code, never as input: inlined, they keep the statement cached per facet.
  const steps = facetRanges(name, filter)
    .map((range, index) => (range.to === null ? `ELSE ${index}` : `WHEN ${column} < ${range.to} THEN ${index}`))
    .join(' ');
  return `CASE WHEN ${column} IS NULL THEN NULL ${steps} END`;
}

/** Rows `{ k, n }`: the facet's keys (NULL for unknown) and their counts. */
export function buildFacetSql(query: FacetsQuery, name: FacetName, chooseText: ChooseText): Sql {
  const filter = withoutOwnFilter(query.filter, name);
  const parts = mergeParts(scopeConditions(facetScope(query.scope, name), query.grouped), filterConditions(filter));
  const key = keyExpression(name, query.filter);
  return withText(filter, parts, chooseText(filter), (from, where) => `SELECT ${key} AS k, count(*) AS n FROM ${from} WHERE ${where} GROUP BY k`);
}

/** One row `{ n }`: the listings of the whole query. */
export function buildFacetTotalSql(query: FacetsQuery, chooseText: ChooseText): Sql {
  const parts = mergeParts(scopeConditions(query.scope, query.grouped), filterConditions(query.filter));
  return withText(query.filter, parts, chooseText(query.filter), (from, where) => `SELECT count(*) AS n FROM ${from} WHERE ${where}`);
}
