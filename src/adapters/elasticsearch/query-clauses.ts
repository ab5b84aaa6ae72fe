/**
 * The query-DSL renderer of the engine-neutral conditions (src/core/query/filters.ts, scope.ts),
 * shared by the body builders: the filter table, the scope and the visibility as clauses, in the
 * order the SQL renderer writes them (so a golden body reads side by side with the SQL).
 *
 * Every clause goes to `bool.filter` (or `bool.must_not`): nothing is scored, because every flow
 * sorts on fields, and filter-context clauses are cacheable.
 */
import type { estypes } from '@elastic/elasticsearch';
import { filterConditions, type Condition } from '../../core/query/filters.js';
import type { ListingFilter, Scope } from '../../core/query/query.js';
import { scopeConditions, siteConditions } from '../../core/query/scope.js';
import type { StoredKey } from '../../core/query/stored-keys.js';
import { areaClause } from './geo-clauses.js';

export type Clause = estypes.QueryDslQueryContainer;

export interface Clauses {
  filter: Clause[];
  mustNot: Clause[];
}

/** The tokens of title and description, made by the shared normaliser (document.ts searchTextOf). */
export const TEXT_FIELD = 'search_text';

/**
 * The field of a stored key (src/core/query/stored-keys.ts): the document keeps the StoredListing
 * shape and adds the derived keys at its root (document.ts), so a key is its own path.
 */
export const fieldOf = (key: StoredKey): string => key;

/** One engine-neutral condition as a clause; `negated`: it goes to `bool.must_not`. */
export function conditionClause(condition: Condition): { clause: Clause; negated: boolean } | null {
  switch (condition.op) {
    case 'equals':
      return { clause: { term: { [fieldOf(condition.key)]: condition.value } }, negated: false };
    case 'oneOf':
      return { clause: { terms: { [fieldOf(condition.key)]: [...condition.values] } }, negated: false };
    case 'range': {
      const bounds: { gte?: number; lte?: number } = {};
      if (condition.min !== undefined) bounds.gte = condition.min;
      if (condition.max !== undefined) bounds.lte = condition.max;
      return { clause: { range: { [fieldOf(condition.key)]: bounds } }, negated: false };
    }
    case 'noneOf':
      return { clause: { terms: { [fieldOf(condition.key)]: [...condition.values] } }, negated: true };
    case 'area':
      return { clause: areaClause(condition.area), negated: false };
    case 'words': {
      const text = textClause(condition.words);
      return text && { clause: text, negated: false };
    }
  }
}

/** Conditions as the two lists of a `bool` query, in their order. */
export function conditionClauses(conditions: readonly Condition[]): Clauses {
  const clauses: Clauses = { filter: [], mustNot: [] };
  for (const condition of conditions) {
    const rendered = conditionClause(condition);
    if (rendered) (rendered.negated ? clauses.mustNot : clauses.filter).push(rendered.clause);
  }
  return clauses;
}

/** Search and map visibility, access period and site eligibility (src/core/query/scope.ts). */
export function searchScope(scope: Scope, grouped: boolean): Clauses {
  return conditionClauses(scopeConditions(scope, grouped));
}

/** Access period and sites for the feed and the withdrawn flow (site listings one by one, never grouped). */
export function siteScope(scope: Scope): Clause[] {
  return conditionClauses(siteConditions(scope)).filter;
}

/** The `/annonces` filters of the filter table, full text included. A filter never excludes (FilterCondition): every clause is a filter. */
export function filterClauses(filter: ListingFilter): Clause[] {
  return conditionClauses(filterConditions(filter).map((active) => active.condition)).filter;
}

/**
 * Every word must be a token of the title or of the description: the document's `search_text` holds
 * both fields' tokens, so one `match` with `operator: and` is the FTS5 query of the embedded store.
 * The words come from queryWords, the tokens from textTokens: one normaliser for both sides.
 */
function textClause(words: readonly string[] | undefined): Clause | null {
  if (!words?.length) return null;
  return { match: { [TEXT_FIELD]: { query: words.join(' '), operator: 'and' } } };
}

export function boolQuery(filter: Clause[], mustNot: Clause[] = []): Clause {
  return { bool: mustNot.length ? { filter, must_not: mustNot } : { filter } };
}
