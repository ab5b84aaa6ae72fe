/**
 * The query-DSL renderer of the engine-neutral conditions (query-clauses.ts): every stored key the
 * filter table and the scope read is a field of the mapping, and each kind of condition is a
 * filter-context clause (or a must_not one). The bodies of whole queries are the golden files'.
 */
import { expect } from 'chai';
import { FILTERS } from '../../../src/core/query/filters.js';
import { scopeConditions } from '../../../src/core/query/scope.js';
import { conditionClauses, fieldOf } from '../../../src/adapters/elasticsearch/query-clauses.js';
import { loadIndexDefinition } from '../../../src/adapters/elasticsearch/index-definition.js';

interface FieldMapping {
  type?: string;
  properties?: Record<string, FieldMapping>;
}

function mappedType(path: string): string | undefined {
  let node: FieldMapping | undefined = loadIndexDefinition().mappings as unknown as FieldMapping;
  for (const part of path.split('.')) node = node?.properties?.[part];
  return node?.type;
}

describe('Elasticsearch rendering of the filter table', () => {
  it('finds an indexed field for every stored key the filters and the scope read', () => {
    const keys = [
      ...FILTERS.flatMap((entry) => ('key' in entry ? [entry.key] : [])),
      ...scopeConditions({ enteredFrom: 0, eligibleSites: ['pap'] }, true).flatMap((condition) => ('key' in condition ? [condition.key] : [])),
    ];
    expect(keys.filter((key) => mappedType(fieldOf(key)) === undefined)).to.deep.equal([]);
  });

  it('renders each kind of condition, exclusions in must_not', () => {
    expect(
      conditionClauses([
        { op: 'equals', key: 'content.is_internal', value: true },
        { op: 'oneOf', key: 'content.dpe', values: ['A', 'B'] },
        { op: 'range', key: 'content.price', max: 9 },
        { op: 'noneOf', key: 'group_sites_ahead', values: ['pap'] },
        { op: 'words', words: ['balcon', 'calme'] },
      ]),
    ).to.deep.equal({
      filter: [
        { term: { 'content.is_internal': true } },
        { terms: { 'content.dpe': ['A', 'B'] } },
        { range: { 'content.price': { lte: 9 } } },
        { match: { search_text: { query: 'balcon calme', operator: 'and' } } },
      ],
      mustNot: [{ terms: { group_sites_ahead: ['pap'] } }],
    });
  });
});
