import { expect } from 'chai';
import { presentAnnonce, presentMapPoint, withdrawnJson, withPriceSeries } from '../../../src/core/model/present.js';
import { WithdrawnAnnonce } from '../../../src/api/routes/retirees/schema.js';
import { Annonce, AnnonceMapPoint, ANNONCE_FIELDS } from '../../../src/core/model/annonce.js';
import { makeListings } from '../../support/fixtures.js';

describe('presenters', () => {
  const [listing] = makeListings({ count: 1 });

  it('presentAnnonce matches the Annonce shape, in the documented order', () => {
    const annonce = presentAnnonce(listing);
    expect(Annonce.safeParse(annonce).success).to.equal(true);
    expect(Object.keys(annonce)).to.deep.equal(ANNONCE_FIELDS);
  });

  it('never lets a private seller name or contact out, whatever the store holds', () => {
    const privateSeller = { ...listing, content: { ...listing.content, seller_type: 'Particulier' as const, seller_name: 'Jean Dupont' } };
    const annonce = presentAnnonce(privateSeller);
    expect(annonce.seller_name).to.equal(null);
    expect(annonce.seller_contact).to.equal(null);
  });

  it('adds <field>_source only for completed fields, and sources[] only for groups', () => {
    const grouped = {
      ...listing,
      completed_from: { description: 'pap' },
      dedup_key: 'd_1',
      group_members: [
        { source: listing.content.source, reference: listing.content.reference, url: 'u1', price: 1 },
        { source: 'pap', reference: 'x', url: 'u2', price: 2 },
      ],
    };
    const annonce = presentAnnonce(grouped) as Record<string, unknown>;
    expect(annonce.description_source).to.equal('pap');
    expect(annonce).not.to.have.property('title_source');
    expect((annonce.sources as { is_main: boolean }[]).map((s) => s.is_main)).to.deep.equal([true, false]);
    expect(presentAnnonce(listing).sources).to.equal(null);
  });

  it('presentMapPoint matches the map point shape with the first photo', () => {
    const point = presentMapPoint(listing);
    expect(AnnonceMapPoint.safeParse(point).success).to.equal(true);
    expect(point.image).to.equal(listing.content.images[0] ?? null);
  });

  it('a withdrawn item says why it left: the status its site reported, or absent when snapshot loads withdrew it', () => {
    const left = { ...listing, left_market_at: Date.parse('2026-11-03T03:00:00Z') };
    const absent = JSON.parse(String(withdrawnJson({ ...left, status: 'retiree', absent_loads: 2 })));
    expect(absent).to.include({ reason: 'absent', withdrawn_at: '2026-11-03T03:00:00.000Z' });
    expect(WithdrawnAnnonce.safeParse(absent).success).to.equal(true);
    expect(JSON.parse(String(withdrawnJson({ ...left, status: 'retiree' }))).reason).to.equal('retiree');
    expect(JSON.parse(String(withdrawnJson({ ...left, status: 'vendue' }))).reason).to.equal('vendue');
  });
});

describe('withPriceSeries', () => {
  const listing = makeListings({ count: 1, seed: 5 })[0];
  const points = [
    { at: '2026-06-01T00:00:00.000Z', price: 120 },
    { at: '2026-07-01T00:00:00.000Z', price: 100 },
    { at: '2026-08-01T00:00:00.000Z', price: 90 },
  ];

  it('turns the stored Annonce text into the one with the series, byte for byte, as a string or bytes', () => {
    for (const series of [points, points.slice(0, 1), []]) {
      const withSeries = { ...listing, price_points: series };
      const stored = JSON.stringify(presentAnnonce(withSeries));
      const expected = JSON.stringify(presentAnnonce(withSeries, { withPricePoints: true }));
      expect(String(withPriceSeries(stored, series))).to.equal(expected);
      expect(String(withPriceSeries(Buffer.from(stored), series))).to.equal(expected);
    }
  });

  it('gives null when the text does not hold the default history of these points', () => {
    const stored = JSON.stringify(presentAnnonce({ ...listing, price_points: points.slice(0, 2) }));
    expect(withPriceSeries(stored, points)).to.equal(null);
  });
});
