/** The snapshot options of `load`, checked before the store is opened (indexer/snapshot-options.ts). */
import { expect } from 'chai';
import { snapshotOptionsOf, type SnapshotArgs } from '../../indexer/snapshot-options.js';
import { loadSites } from '../../src/core/model/sites.js';
import { loadCommunes } from '../../src/core/refdata/communes.js';

describe('load --snapshot options', () => {
  const of = (args: SnapshotArgs) => snapshotOptionsOf(args, loadSites(), loadCommunes());

  it('a site, or a site and departments (deduplicated, upper case), with the defaults', () => {
    expect(of({})).to.equal(null);
    expect(of({ snapshot: 'seloger' })).to.deep.equal({ scope: { source: 'seloger', departments: null }, absentLoads: 2, minRatio: 0.8 });
    expect(of({ snapshot: 'pap:92,2a,75,92', 'absent-loads': '3', 'min-ratio': '1' })).to.deep.equal({
      scope: { source: 'pap', departments: ['2A', '75', '92'] },
      absentLoads: 3,
      minRatio: 1,
    });
    expect(of({ snapshot: 'leboncoin:971', 'min-ratio': '0.05' })).to.deep.include({ minRatio: 0.05 });
  });

  const refused: [SnapshotArgs, RegExp][] = [
    [{ snapshot: 'nosuchsite' }, /^--snapshot: unknown site "nosuchsite" \(sites: seloger, /],
    [{ snapshot: '' }, /^--snapshot: unknown site ""/],
    [{ snapshot: 'seloger:' }, /^--snapshot: an empty department in "seloger:"/],
    [{ snapshot: 'seloger:75,' }, /^--snapshot: an empty department/],
    [{ snapshot: 'seloger:99,75,paris' }, /^--snapshot: not a department: 99, PARIS/],
    [{ snapshot: 'seloger:20' }, /^--snapshot: not a department: 20 /],
    [{ snapshot: 'seloger', 'min-ratio': '0' }, /^--min-ratio takes a number above 0 and at most 1, got "0"/],
    [{ snapshot: 'seloger', 'min-ratio': '1.01' }, /^--min-ratio .* got "1.01"/],
    [{ snapshot: 'seloger', 'min-ratio': '-0.5' }, /^--min-ratio .* got "-0.5"/],
    [{ snapshot: 'seloger', 'min-ratio': 'most' }, /^--min-ratio .* got "most"/],
    [{ snapshot: 'seloger', 'min-ratio': '' }, /^--min-ratio .* got ""/],
    [{ snapshot: 'seloger', 'absent-loads': '0' }, /^--absent-loads takes an integer from 1 to 1000, got "0"/],
    [{ snapshot: 'seloger', 'absent-loads': '2.5' }, /^--absent-loads .* got "2.5"/],
    [{ snapshot: 'seloger', 'absent-loads': 'two' }, /^--absent-loads .* got "two"/],
    [{ snapshot: 'seloger', 'absent-loads': '' }, /^--absent-loads .* got ""/],
    [{ 'absent-loads': '2' }, /^--absent-loads is for a snapshot load: it needs --snapshot SITE\[:DEPT,...\]$/],
    [{ 'min-ratio': '0.9' }, /^--min-ratio is for a snapshot load/],
  ];
  for (const [args, message] of refused) {
    it(`refuses ${JSON.stringify(args)}`, () => {
      const outcome = of(args);
      expect(outcome).to.have.property('error').that.matches(message);
    });
  }
});
