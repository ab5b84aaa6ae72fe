/**
 * The filter table (src/core/query/filters.ts): it declares every field of ListingFilter once and
 * every filter parameter of the routes, and turns a filter into the conditions every engine renders.
 */
import { expect } from 'chai';
import { FILTERS, conditionOf, fieldsOf, filterConditions } from '../../../src/core/query/filters.js';
import { listingFilterParams } from '../../../src/api/routes/shared/listing-filter.js';
import { areaParams } from '../../../src/api/routes/shared/area-params.js';
import { siteFilterParams } from '../../../src/api/routes/shared/params.js';
import { LISTING_FILTER_KEYS } from '../../support/filter-keys.js';

describe('the filter table', () => {
  it('reads every field of ListingFilter, each in one filter, and names each filter once', () => {
    const fields = FILTERS.flatMap(fieldsOf);
    expect([...fields].sort()).to.deep.equal([...LISTING_FILTER_KEYS].sort());
    expect(new Set(FILTERS.map((entry) => entry.name)).size).to.equal(FILTERS.length);
  });

  it('declares exactly the filter parameters of the routes (the sites are the scope)', () => {
    const declared = FILTERS.flatMap((entry) => entry.params).sort();
    const routes = [...Object.keys(listingFilterParams), ...Object.keys(areaParams)].filter((param) => !(param in siteFilterParams)).sort();
    expect(declared).to.deep.equal(routes);
  });

  it('gives the conditions of the filters a query sets, in the order of the table', () => {
    const active = filterConditions({ words: ['balcon'], priceMax: 300_000, types: ['maison'], department: '69' });
    expect(active.map(({ entry }) => entry.name)).to.deep.equal(['type', 'dept', 'prix', 'q']);
    expect(active.map(({ condition }) => condition)).to.deep.equal([
      { op: 'oneOf', key: 'type_norm', values: ['maison'] },
      { op: 'equals', key: 'content.department', value: '69' },
      { op: 'range', key: 'content.price', max: 300_000 },
      { op: 'words', words: ['balcon'] },
    ]);
  });

  it('sets nothing for an empty list or text, and keeps a bound of 0', () => {
    expect(filterConditions({ types: [], cities: [], dpe: [], words: [], postalCode: '', region: '' })).to.deep.equal([]);
    const rooms = FILTERS.find((entry) => entry.name === 'pieces')!;
    expect(conditionOf(rooms, { roomsMin: 0 })).to.deep.equal({ op: 'range', key: 'content.rooms', min: 0 });
  });
});
