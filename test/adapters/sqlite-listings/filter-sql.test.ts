/**
 * The SQL renderer of the engine-neutral conditions (read/filter-sql.ts): every stored key the filter
 * table and the scope read is a column of the listings table, and each kind of condition is written
 * as the indexes need it. The statements of whole queries are the golden files' (golden.test.ts).
 */
import { expect } from 'chai';
import { FILTERS } from '../../../src/core/query/filters.js';
import { scopeConditions } from '../../../src/core/query/scope.js';
import { columnOf, conditionSql } from '../../../src/adapters/sqlite-listings/read/filter-sql.js';
import { ROW_COLUMNS } from '../../../src/adapters/sqlite-listings/rows/columns.js';

describe('SQLite rendering of the filter table', () => {
  it('finds a column for every stored key the filters and the scope read', () => {
    const keys = [
      ...FILTERS.flatMap((entry) => ('key' in entry ? [entry.key] : [])),
      ...scopeConditions({ enteredFrom: 0, eligibleSites: ['pap'] }, true).flatMap((condition) => ('key' in condition ? [condition.key] : [])),
    ];
    const missing = keys.filter((key) => !(ROW_COLUMNS as readonly string[]).includes(columnOf(key)));
    expect(missing).to.deep.equal([]);
  });

  it('writes the constants of the partial indexes into the statement and binds the other values', () => {
    expect(conditionSql({ op: 'equals', key: 'vis', value: 2 })).to.deep.equal({ where: ['l.vis = 2'], params: [] });
    expect(conditionSql({ op: 'range', key: 'vis', min: 1 })).to.deep.equal({ where: ['l.vis >= 1'], params: [] });
    expect(conditionSql({ op: 'range', key: 'content.price', min: 1, max: 9 }, 'x')).to.deep.equal({ where: ['x.price >= ?', 'x.price <= ?'], params: [1, 9] });
  });

  it('keeps a term from leading an index with +, binds booleans as 0 or 1, and finds listed values whole', () => {
    expect(conditionSql({ op: 'equals', key: 'content.transaction_type', value: 'vente' }, 'l', false).where).to.deep.equal(['+l.transaction_type = ?']);
    expect(conditionSql({ op: 'equals', key: 'content.is_internal', value: true })).to.deep.equal({ where: ['l.is_internal = ?'], params: [1] });
    expect(conditionSql({ op: 'noneOf', key: 'group_sites_ahead', values: ['pap', 'bienici'] })).to.deep.equal({
      where: ['instr(l.sites_ahead, ?) = 0', 'instr(l.sites_ahead, ?) = 0'],
      params: [',pap,', ',bienici,'],
    });
    expect(conditionSql({ op: 'words', words: ['balcon'] })).to.deep.equal({ where: [], params: [] });
  });
});
