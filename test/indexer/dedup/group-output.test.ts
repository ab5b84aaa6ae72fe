/** Group fields: ranking by site priority, sites ahead, sources, completion from the best-ranked member that has a value. */
import { expect } from 'chai';
import { complete, groupFields, publicGroupOutputDiffers, rankMembers } from '../../../indexer/dedup/group-output.js';
import { ownContent, withOwnContent } from '../../../indexer/dedup/own-content.js';
import { loadSites } from '../../../src/core/model/sites.js';
import { stored } from './helpers.js';

describe('dedup group fields', () => {
  const sites = loadSites(); // seloger 1, leboncoin 2, bienici 3, ..., pap 5
  const seloger = stored({ source: 'seloger', reference: 'S', description: null, images: [], images_count: 0, bedrooms: null, dpe: null });
  const pap = stored({
    source: 'pap',
    reference: 'P',
    description: 'Texte PAP',
    bedrooms: 3,
    dpe: 'E',
    images: ['https://img.pap.example/1.jpg', 'https://img.pap.example/2.jpg'],
    images_count: 2,
  });
  const bienici = stored({ source: 'bienici', reference: 'B', description: "Texte Bien'ici", bedrooms: null, dpe: 'C', images: [], images_count: 0 });

  it('ranks members by site priority and gives each the sites ranked above it', () => {
    const ranked = rankMembers([pap, seloger, bienici], sites);
    expect(ranked.map((m) => m.content.source)).to.deep.equal(['seloger', 'bienici', 'pap']);
    const fields = groupFields(ranked, 'K');
    expect(fields.map((f) => f.group_sites_ahead)).to.deep.equal([[], ['seloger'], ['seloger', 'bienici']]);
    expect(fields.every((f) => f.dedup_key === 'K')).to.equal(true);
    expect(fields[0].group_members).to.deep.equal([
      { source: 'seloger', reference: 'S', url: 'https://www.seloger.example/S', price: 320_000 },
      { source: 'bienici', reference: 'B', url: 'https://www.bienici.example/B', price: 320_000 },
      { source: 'pap', reference: 'P', url: 'https://www.pap.example/P', price: 320_000 },
    ]);
  });

  it('completes each missing field from the best-ranked member that has it, and names the site', () => {
    const [main, second, third] = groupFields(rankMembers([seloger, bienici, pap], sites), 'K');
    expect(main.content.description).to.equal("Texte Bien'ici");
    expect(main.content.dpe).to.equal('C');
    expect(main.content.bedrooms).to.equal(3);
    expect(main.content.images).to.deep.equal(pap.content.images);
    expect(main.content.images_count).to.equal(2);
    expect(main.has_photos).to.equal(true);
    expect(main.completed_from).to.deep.equal({ description: 'bienici', images: 'pap', bedrooms: 'pap', dpe: 'bienici' });
    // Own values are never replaced.
    expect(second.content.description).to.equal("Texte Bien'ici");
    expect(second.completed_from).to.deep.equal({ images: 'pap', bedrooms: 'pap' });
    expect(third.completed_from).to.deep.equal({});
    expect(third.content).to.equal(pap.content);
  });

  it('gives a listing alone no key, no sources and no completion', () => {
    const [alone] = groupFields([seloger], null);
    expect(alone).to.deep.include({ dedup_key: null, group_members: null, group_sites_ahead: [], completed_from: {}, has_photos: false });
  });

  it("undoes a completion to get back the listing's own content (what scoring and completion start from)", () => {
    const [main] = groupFields(rankMembers([seloger, pap], sites), 'K');
    const completed = { ...seloger, ...main };
    expect(ownContent(completed)).to.deep.equal(seloger.content);
    expect(withOwnContent(completed)).to.deep.include({ completed_from: {}, has_photos: false });
  });

  it('sees a change of sources or of a completed value as a public change, not a change of sites ahead alone', () => {
    const [main] = groupFields(rankMembers([seloger, pap], sites), 'K');
    const otherText = complete(seloger.content, [{ content: { ...pap.content, description: 'Nouveau texte' } }]);
    expect(publicGroupOutputDiffers(main, { ...main, content: otherText.content, completed_from: otherText.completedFrom })).to.equal(true);
    expect(publicGroupOutputDiffers(main, { ...main, group_members: main.group_members!.slice(0, 1) })).to.equal(true);
    expect(publicGroupOutputDiffers(main, { ...main, dedup_key: 'J' })).to.equal(true);
    expect(publicGroupOutputDiffers(main, { ...main, group_sites_ahead: ['x'] })).to.equal(false);
  });
});
