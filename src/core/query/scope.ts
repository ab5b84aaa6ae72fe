/**
 * Who may see what, as engine-neutral conditions (filters.ts) every engine renders like the
 * filters: the visibility (stored-keys.ts visOf), the access period and site eligibility of the
 * caller's Scope, and, grouped, one listing per duplicate group (docs/deduplication.md).
 */
import type { Condition } from './filters.js';
import type { Scope } from './query.js';

/** Access period and eligible sites: the feed and the withdrawn flow (site listings one by one, never grouped). */
export function siteConditions(scope: Scope): Condition[] {
  const conditions: Condition[] = [{ op: 'range', key: 'catalogue_entered_at', min: scope.enteredFrom }];
  if (scope.eligibleSites !== null) conditions.push({ op: 'oneOf', key: 'content.source', values: scope.eligibleSites });
  return conditions;
}

/**
 * Search and map: grouped without a site filter is `vis = 2` (the reference of each group);
 * otherwise `vis >= 1`, the listing's own site eligible and, grouped, none of the sites ranked above
 * it in its group eligible (the best-ranked eligible site stands for the group).
 */
export function scopeConditions(scope: Scope, grouped: boolean): Condition[] {
  const eligible = scope.eligibleSites;
  const conditions: Condition[] = [
    grouped && eligible === null ? { op: 'equals', key: 'vis', value: 2 } : { op: 'range', key: 'vis', min: 1 },
    ...siteConditions(scope),
  ];
  if (grouped && eligible !== null) conditions.push({ op: 'noneOf', key: 'group_sites_ahead', values: eligible });
  return conditions;
}
