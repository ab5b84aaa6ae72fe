/**
 * GET /stats in two reads. One search without hits: the area and the criteria in the query, then two
 * `filter` aggregations, the active listings (search scope: those /annonces returns) and the site
 * listings that left the market since `withdrawnSince` (the withdrawn flow's scope). Their counts
 * are the filters' `doc_count`, exact; the active listings' quartiles are `percentiles` aggregations
 * (TDigest), within the bound of docs/api.md.
 *
 * The withdrawn listings' figures are computed from their documents, read page by page
 * (buildWithdrawnValuesBody): time on market and the discount need two fields each, and the first
 * and last prices are in `price_digest`, which the mapping keeps in `_source` only; the cluster has
 * no script language to derive them at search time. They are then exact, as on SQLite; 90 days of
 * withdrawals of an area are far fewer documents than its active listings.
 */
import type { estypes } from '@elastic/elasticsearch';
import type { Quartiles, StatsArea, StatsQuery, WithdrawnValues } from '../../core/query/aggregates.js';
import { QUARTILES, statsCriteria } from '../../core/query/aggregates.js';
import { boxClause } from './map-body.js';
import { areaClause } from './geo-clauses.js';
import { PERCENTILES_COMPRESSION } from './clusters-body.js';
import { boolQuery, conditionClauses, searchScope, siteScope, type Clause } from './query-clauses.js';
import type { SearchBody } from './search-body.js';

const PERCENTS = QUARTILES.map((q) => q * 100);

/** Withdrawn documents read per page. */
export const WITHDRAWN_PAGE = 5000;

export function areaClauses(area: StatsArea): Clause[] {
  switch (area.kind) {
    case 'postalCode':
      return [{ term: { 'content.postal_code': area.postalCode } }];
    case 'department':
      return [{ term: { 'content.department': area.department } }];
    case 'shape':
      return [areaClause(area.shape)];
    case 'bbox':
      return [boxClause(area.bbox)];
    case 'commune': {
      // The same rule as the SQLite adapter (stats-sql.ts areaConditions).
      const should: Clause[] = [];
      if (area.postalCodes.length) should.push({ terms: { 'content.postal_code': area.postalCodes } });
      if (area.sharedPostalCodes.length && area.cityNames.length) {
        should.push(boolQuery([{ terms: { 'content.postal_code': area.sharedPostalCodes } }, { terms: { city_norm: area.cityNames } }]));
      }
      return [{ bool: { should, minimum_should_match: 1 } }];
    }
  }
}

function criteriaClauses(query: StatsQuery): Clause[] {
  return conditionClauses(statsCriteria(query)).filter;
}

/** Quartiles of a field, and how many values it has. */
function quartileAggs(name: string, field: string): Record<string, estypes.AggregationsAggregationContainer> {
  return {
    [name]: { percentiles: { field, percents: PERCENTS, tdigest: { compression: PERCENTILES_COMPRESSION } } },
    [`${name}_count`]: { value_count: { field } },
  };
}

function withdrawnFilter(query: StatsQuery): Clause {
  return boolQuery([{ range: { left_market_at: { gte: query.withdrawnSince } } }, ...siteScope(query.scope)], [{ term: { status: 'active' } }]);
}

export function buildStatsBody(query: StatsQuery): SearchBody {
  const active = searchScope(query.scope, query.grouped);
  return {
    query: boolQuery([...areaClauses(query.area), ...criteriaClauses(query)]),
    size: 0,
    track_total_hits: false,
    aggs: {
      active: {
        filter: boolQuery(active.filter, active.mustNot),
        aggs: { ...quartileAggs('price', 'content.price'), ...quartileAggs('price_per_m2', 'content.price_per_m2') },
      },
      withdrawn: { filter: withdrawnFilter(query) },
    },
  };
}

/** A page of the withdrawn listings' values, in id order, after the id `after`. */
export function buildWithdrawnValuesBody(query: StatsQuery, after: string | null): SearchBody {
  return {
    query: boolQuery([...areaClauses(query.area), ...criteriaClauses(query), withdrawnFilter(query)]),
    size: WITHDRAWN_PAGE,
    track_total_hits: false,
    sort: [{ id: { order: 'asc' } }],
    ...(after === null ? {} : { search_after: [after] }),
    _source: { includes: WITHDRAWN_FIELDS },
  };
}

const WITHDRAWN_FIELDS = [
  'id',
  'left_market_at',
  'published_at',
  'catalogue_entered_at',
  'content.price',
  'content.price_per_m2',
  'price_digest.first.price',
  'price_digest.last.price',
];

export interface WithdrawnSource {
  id: string;
  left_market_at: number;
  published_at: number | null;
  catalogue_entered_at: number;
  content: { price?: number | null; price_per_m2?: number | null };
  price_digest?: { first?: { price: number }; last?: { price: number } } | null;
}

export function withdrawnValuesOf(source: WithdrawnSource): WithdrawnValues {
  return {
    price: source.content.price ?? null,
    pricePerM2: source.content.price_per_m2 ?? null,
    firstPrice: source.price_digest?.first?.price ?? null,
    lastPrice: source.price_digest?.last?.price ?? null,
    leftMarketAt: source.left_market_at,
    publishedAt: source.published_at ?? null,
    enteredAt: source.catalogue_entered_at,
  };
}

type Buckets = Record<string, { doc_count?: number } & Record<string, unknown>>;

function quartilesOf(bucket: Buckets[string], name: string): Quartiles {
  const count = (bucket[`${name}_count`] as { value: number }).value;
  const values = (bucket[name] as { values: Record<string, number | null> }).values;
  const at = (percent: number) => (count === 0 ? null : (values[percent.toFixed(1)] ?? null));
  return { count, q1: at(25), median: at(50), q3: at(75) };
}

/** The active listings' figures and the number of withdrawn listings, from the aggregations. */
export function activeStatsOf(aggs: Buckets): { active: { count: number; price: Quartiles; pricePerM2: Quartiles }; withdrawnCount: number } {
  const { active, withdrawn } = aggs;
  return {
    active: { count: active.doc_count ?? 0, price: quartilesOf(active, 'price'), pricePerM2: quartilesOf(active, 'price_per_m2') },
    withdrawnCount: withdrawn.doc_count ?? 0,
  };
}
