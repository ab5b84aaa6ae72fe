/**
 * Query clauses shared by the body builders: the same semantics as src/adapters/sqlite-listings/filter-sql.ts,
 * clause for clause and in the same order (so a golden body reads side by side with the SQL).
 *
 * Every clause goes to `bool.filter` (or `bool.must_not`): nothing is scored, because every flow
 * sorts on fields, and filter-context clauses are cacheable.
 */
import type { estypes } from '@elastic/elasticsearch';
import type { ListingFilter, Scope } from '../../core/query/query.js';
import { areaClause } from './geo-clauses.js';

export type Clause = estypes.QueryDslQueryContainer;

export interface Clauses {
  filter: Clause[];
  mustNot: Clause[];
}

/** The tokens of title and description, made by the shared normaliser (document.ts searchTextOf). */
export const TEXT_FIELD = 'search_text';

/**
 * Search and map visibility, access period and site eligibility (docs/deduplication.md):
 * grouped without a site filter is `vis = 2`; otherwise `vis >= 1`, the listing's own site eligible
 * and, grouped, none of the sites ranked above it in its group eligible.
 */
export function searchScope(scope: Scope, grouped: boolean): Clauses {
  const eligible = scope.eligibleSites;
  const filter: Clause[] = [
    grouped && eligible === null ? { term: { vis: 2 } } : { range: { vis: { gte: 1 } } },
    { range: { catalogue_entered_at: { gte: scope.enteredFrom } } },
  ];
  const mustNot: Clause[] = [];
  if (eligible !== null) {
    filter.push({ terms: { 'content.source': eligible } });
    if (grouped) mustNot.push({ terms: { group_sites_ahead: eligible } });
  }
  return { filter, mustNot };
}

/** Access period and sites for the feed and the withdrawn flow (site listings one by one, never grouped). */
export function siteScope(scope: Scope): Clause[] {
  const filter: Clause[] = [{ range: { catalogue_entered_at: { gte: scope.enteredFrom } } }];
  if (scope.eligibleSites !== null) filter.push({ terms: { 'content.source': scope.eligibleSites } });
  return filter;
}

/** The `/annonces` filters. A missing value never satisfies a range, as in SQL (unknown years are excluded). */
export function filterClauses(filter: ListingFilter): Clause[] {
  const clauses: Clause[] = [];
  const range = (field: string, min: number | undefined, max: number | undefined) => {
    if (min === undefined && max === undefined) return;
    const bounds: { gte?: number; lte?: number } = {};
    if (min !== undefined) bounds.gte = min;
    if (max !== undefined) bounds.lte = max;
    clauses.push({ range: { [field]: bounds } });
  };
  if (filter.types?.length) clauses.push({ terms: { type_norm: filter.types } });
  if (filter.transaction) clauses.push({ term: { 'content.transaction_type': filter.transaction } });
  if (filter.cities?.length) clauses.push({ terms: { city_norm: filter.cities } });
  if (filter.postalCode) clauses.push({ term: { 'content.postal_code': filter.postalCode } });
  if (filter.department) clauses.push({ term: { 'content.department': filter.department } });
  if (filter.region) clauses.push({ term: { region_norm: filter.region } });
  range('content.price', filter.priceMin, filter.priceMax);
  range('content.price_per_m2', filter.pricePerM2Min, filter.pricePerM2Max);
  range('content.surface', filter.surfaceMin, filter.surfaceMax);
  range('content.rooms', filter.roomsMin, undefined);
  range('content.bedrooms', filter.bedroomsMin, undefined);
  range('content.year_built', filter.yearMin, filter.yearMax);
  if (filter.dpe?.length) clauses.push({ terms: { 'content.dpe': filter.dpe } });
  if (filter.ges?.length) clauses.push({ terms: { 'content.ges': filter.ges } });
  range('updated_at', filter.updatedSince, undefined);
  range('published_at', filter.createdSince, undefined);
  if (filter.relisted !== undefined) clauses.push({ term: { relisted: filter.relisted } });
  if (filter.area) clauses.push(areaClause(filter.area));
  const text = textClause(filter.words);
  if (text) clauses.push(text);
  return clauses;
}

/**
 * Every word must be a token of the title or of the description: the document's `search_text` holds
 * both fields' tokens, so one `match` with `operator: and` is the FTS5 query of the embedded store.
 * The words come from queryWords, the tokens from textTokens: one normaliser for both sides.
 */
export function textClause(words: readonly string[] | undefined): Clause | null {
  if (!words?.length) return null;
  return { match: { [TEXT_FIELD]: { query: words.join(' '), operator: 'and' } } };
}

export function boolQuery(filter: Clause[], mustNot: Clause[] = []): Clause {
  return { bool: mustNot.length ? { filter, must_not: mustNot } : { filter } };
}
