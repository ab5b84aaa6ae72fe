/** The block base (src/core/dedup/block-key.ts): where a listing's duplicate candidates are looked for. */
import { expect } from 'chai';
import { blockBaseOf } from '../../../src/core/dedup/block-key.js';
import { stored } from '../../indexer/dedup/helpers.js';

const base = (place: { postal_code: string | null; city: string | null; department: string | null }) => blockBaseOf(stored(place));

describe('dedup: the block base', () => {
  it('puts a commune of several postal codes in one base, with or without the postal code', () => {
    const toulon = base({ postal_code: null, city: 'Toulon', department: '83' });
    expect(toulon).to.equal('vente|appartement|c83137');
    expect(base({ postal_code: '83100', city: 'Toulon', department: '83' })).to.equal(toulon);
    expect(base({ postal_code: '83000', city: null, department: null })).to.equal(toulon);
  });

  it('keeps the postal code of a commune that has one, and of Paris, Lyon and Marseille arrondissements', () => {
    expect(base({ postal_code: '92300', city: 'Levallois-Perret', department: '92' })).to.equal('vente|appartement|92300');
    expect(base({ postal_code: '75008', city: 'Paris', department: '75' })).to.equal('vente|appartement|75008');
    expect(base({ postal_code: '69003', city: 'Lyon', department: '69' })).to.equal('vente|appartement|69003');
  });

  it('places a listing with a city name only in its commune, and one without any place nowhere', () => {
    expect(base({ postal_code: null, city: 'Levallois-Perret', department: '92' })).to.equal('vente|appartement|92300');
    expect(base({ postal_code: null, city: 'Paris', department: '75' })).to.equal('vente|appartement|c75056');
    expect(base({ postal_code: null, city: null, department: '83' })).to.equal(null);
    // A name several departments share, without a department: unknown.
    expect(base({ postal_code: null, city: 'Saint-Denis', department: null })).to.equal(null);
  });
});
