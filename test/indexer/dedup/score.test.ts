/** Pairwise scoring: copies of one property match, hard negatives do not, limits are hard. */
import { expect } from 'chai';
import fc from 'fast-check';
import { agreesOnSharedValues, MATCH_THRESHOLD, scoreDetail, scorePair } from '../../../indexer/dedup/score.js';
import { containment, shingles } from '../../../src/core/dedup/shingles.js';
import { floorOf } from '../../../src/core/dedup/features.js';
import { DESCRIPTION, features, SPARSE } from './helpers.js';

/** How another site republishes the text: other wording, sentences reordered, its own intro. */
const REWRITTEN =
  "EXCLUSIF ! À vendre à Lyon, appartement de 3 pièces de 65 m² situé au 2e étage d'un immeuble ancien. " +
  'Les plus : balcon, parquet ancien et cave. À proximité des commerces et transports. ' +
  'Vous y trouverez une entrée, un séjour lumineux, une cuisine équipée, 2 chambres et une salle de bains.';

describe('dedup scoring', () => {
  const original = features({ source: 'seloger', reference: 'S1', surface: 65.4 });

  it('matches a copy with realistic differences: price +3 %, surface rounded, text rewritten, other agency', () => {
    const copy = features({
      source: 'leboncoin',
      reference: 'L1',
      price: 329_600,
      surface: 65,
      description: REWRITTEN,
      seller_name: 'Century 21 Lyon Est',
      dpe_value: null,
      ges_value: null,
      year_built: null,
      images: [],
    });
    expect(scorePair(original, copy)).to.be.at.least(MATCH_THRESHOLD);
  });

  it('matches a copy whose description was cut and which gives no energy figures', () => {
    const copy = features({
      source: 'pap',
      reference: 'P1',
      price: 316_000,
      description: `${DESCRIPTION.slice(0, 170)}…`,
      dpe: null,
      ges: null,
      dpe_value: null,
      ges_value: null,
      seller_name: 'AGENCE DU PARC',
    });
    expect(scorePair(original, copy)).to.be.at.least(MATCH_THRESHOLD);
  });

  it('matches a copy without any text on the evidence of the agency, the price and the surface', () => {
    const copy = features({ source: 'locamoi', reference: 'X1', description: null, dpe_value: null, ges_value: null, surface: 65.4 });
    const detail = scoreDetail(original, copy);
    expect(detail.parts).to.not.have.property('text');
    expect(detail.score).to.be.at.least(MATCH_THRESHOLD);
  });

  describe('sparse real shapes', () => {
    // SeLoger-like: a price, a surface, the rooms and a postal code; no text, no energy, no position.
    const sparse = (overrides: Record<string, unknown>) =>
      features({
        ...SPARSE,
        price: 210_000,
        surface: 65,
        rooms: 4,
        postal_code: '83100',
        city: 'Toulon',
        department: '83',
        ...overrides,
      });

    it('match on the same price, the same rooms and a surface one site rounds', () => {
      const seloger = sparse({ source: 'seloger', reference: 'S', surface: 65.95 });
      const leboncoin = sparse({ source: 'leboncoin', reference: 'L', surface: 66, postal_code: null, latitude: 43.128, longitude: 5.921 });
      const detail = scoreDetail(seloger, leboncoin);
      expect(detail.parts).to.deep.equal({ price: 1, surface: 1, rooms: 0.5 });
      expect(detail.score).to.be.at.least(MATCH_THRESHOLD);
    });

    it('an imputed position (the commune centre) is no evidence against a real one', () => {
      const centre = sparse({ source: 'seloger', reference: 'S', latitude: 43.136, longitude: 5.933 });
      const blurred = sparse({ source: 'leboncoin', reference: 'L', latitude: 43.1, longitude: 5.88 });
      expect(centre.lat).to.equal(null);
      expect(scoreDetail(centre, blurred).parts).to.not.have.property('distance');
      // Two imputed positions do not make two listings "within 150 m" either.
      expect(scoreDetail(centre, sparse({ source: 'pap', reference: 'P', latitude: 43.136, longitude: 5.933 })).parts).to.not.have.property('distance');
    });

    it('the same agency spelled another way counts, another name costs nothing', () => {
      const a = sparse({ source: 'seloger', reference: 'S', seller_type: 'Pro', seller_name: 'Mcd' });
      expect(scoreDetail(a, sparse({ source: 'bienici', reference: 'B', seller_type: 'Pro', seller_name: 'MCD ORPI' })).parts.agency).to.equal(1.5);
      expect(scoreDetail(a, sparse({ source: 'bienici', reference: 'B', seller_type: 'Pro', seller_name: 'Laforêt Mourillon' })).parts).to.not.have.property(
        'agency',
      );
    });

    it('one brand named by two offices counts nearly as much as one agency; a generic first word is no brand', () => {
      const agency = (source: string, seller_name: string) => sparse({ source, reference: source, seller_type: 'Pro', seller_name });
      expect(scoreDetail(agency('seloger', 'Evolis IDF Ouest'), agency('avendrealouer', 'Evolis Groupe JLV')).parts.agency).to.equal(1);
      expect(scoreDetail(agency('seloger', 'Agence du Parc'), agency('bienici', 'Agence de la Gare'))).to.not.have.nested.property('parts.agency');
      expect(scoreDetail(agency('seloger', 'Paris Batignolles Immobilier'), agency('bienici', 'Paris Neuilly'))).to.not.have.nested.property('parts.agency');
      expect(scoreDetail(agency('seloger', 'L Adresse Nice'), agency('bienici', 'L Adresse Cannes'))).to.not.have.nested.property('parts.agency');
    });

    it('a price one euro apart is the same price (cents rounded or truncated); 0.7 % apart is not', () => {
      const rent = (source: string, price: number) => sparse({ source, reference: source, transaction_type: 'location', price });
      expect(scoreDetail(rent('seloger', 3124), rent('avendrealouer', 3125)).parts.price).to.equal(1);
      expect(
        scoreDetail(sparse({ source: 'seloger', reference: 'S', price: 421_000 }), sparse({ source: 'pap', reference: 'P', price: 424_000 })).parts.price,
      ).to.equal(0.5);
    });

    it('an agency name cut at a field width is the same agency; a short last word is no cut', () => {
      const agency = (source: string, seller_name: string) => sparse({ source, reference: source, seller_type: 'Pro', seller_name });
      const optimhome = agency('leboncoin', 'OPTIMHOME');
      const cut = agency('seloger', 'GOUPILLON BASTERE Jean-Baptiste Et Ines Agent mandataire Optimho');
      expect(scoreDetail(optimhome, cut).parts.agency).to.equal(1.5);
      // Only the last word may be cut, and only when enough of it is left to be no word of its own.
      expect(scoreDetail(optimhome, agency('seloger', 'Optimho Agent mandataire'))).to.not.have.nested.property('parts.agency');
      expect(scoreDetail(agency('leboncoin', 'Immobilier'), agency('seloger', 'Cabinet Durand Immo'))).to.not.have.nested.property('parts.agency');
    });

    it('two flats of one agency at one price with other surfaces or floors do not match', () => {
      const agency = { seller_type: 'Pro', seller_name: 'Agence du Port' };
      const flat = sparse({ source: 'seloger', reference: 'S', surface: 65, ...agency });
      expect(scorePair(flat, sparse({ source: 'bienici', reference: 'B', surface: 66.5, ...agency }))).to.be.below(MATCH_THRESHOLD);
      expect(scorePair(flat, sparse({ source: 'bienici', reference: 'B', surface: 71, ...agency }))).to.equal(-Infinity);
      const floors = (floor: string, source: string) =>
        sparse({ source, reference: source, description: `Appartement au ${floor} étage, 4 pièces.`, ...agency });
      expect(scorePair(floors('2e', 'seloger'), floors('4e', 'bienici'))).to.equal(-Infinity);
    });

    describe('agreeing on every value both carry', () => {
      const full = sparse({ source: 'seloger', reference: 'S' });
      const priceOnly = sparse({ source: 'bellesdemeures', reference: 'B', surface: null, rooms: null });

      it('holds for a sparse copy that carries only the same price, whatever its low score', () => {
        expect(scorePair(full, priceOnly)).to.be.below(MATCH_THRESHOLD - 0.5);
        expect(agreesOnSharedValues(full, priceOnly)).to.equal(true);
      });

      it('fails on a value compared without agreeing: a price 4 % apart, a surface 0.8 m² apart, another bedroom count, two texts', () => {
        expect(agreesOnSharedValues(full, sparse({ source: 'pap', reference: 'P', price: 218_400, surface: null, rooms: null }))).to.equal(false);
        expect(
          agreesOnSharedValues(sparse({ source: 'seloger', reference: 'S', surface: 65.3 }), sparse({ source: 'pap', reference: 'P', surface: 66.1 })),
        ).to.equal(false);
        expect(
          agreesOnSharedValues(sparse({ source: 'seloger', reference: 'S', bedrooms: 2 }), sparse({ source: 'pap', reference: 'P', bedrooms: 3 })),
        ).to.equal(false);
        const texts = (source: string, description: string) => sparse({ source, reference: source, description });
        expect(
          agreesOnSharedValues(texts('seloger', DESCRIPTION), texts('pap', 'Maison de ville avec jardin et garage, proche des écoles et du marché couvert.')),
        ).to.equal(false);
        expect(agreesOnSharedValues(texts('seloger', DESCRIPTION), texts('pap', DESCRIPTION))).to.equal(true);
      });

      it('fails on a price 1.5 % apart: close is not the same', () => {
        expect(agreesOnSharedValues(full, sparse({ source: 'pap', reference: 'P', price: 213_000 }))).to.equal(false);
      });

      it('fails outside the hard limits: one site, another surface', () => {
        expect(agreesOnSharedValues(full, sparse({ source: 'seloger', reference: 'S2' }))).to.equal(false);
        expect(agreesOnSharedValues(full, sparse({ source: 'pap', reference: 'P', surface: 70 }))).to.equal(false);
      });
    });

    it('price and surface without the rooms are not enough', () => {
      expect(scorePair(sparse({ source: 'seloger', reference: 'S' }), sparse({ source: 'pap', reference: 'P', rooms: null }))).to.be.below(MATCH_THRESHOLD);
    });
  });

  describe('hard negatives: the neighbouring flat of the same building', () => {
    // Same building (coordinates), type, surface and rooms; another floor, its own text and energy figures.
    const neighbourText =
      "À vendre à Lyon, appartement de 3 pièces de 65 m² situé au 5e étage avec ascenseur d'un immeuble ancien. " +
      "Il comprend une entrée, un salon, une cuisine américaine, 2 chambres et une salle d'eau. " +
      'Belle vue dégagée, double vitrage. À visiter sans tarder !';
    const neighbour = (price: number) =>
      features({
        source: 'leboncoin',
        reference: 'N1',
        surface: 65.4,
        price,
        description: neighbourText,
        dpe: 'E',
        ges: 'D',
        dpe_value: 268,
        ges_value: 41,
        kitchen: 'américaine',
      });

    it('does not match when the prices are more than 12 % apart', () => {
      expect(scorePair(original, neighbour(Math.round(320_000 * 1.13)))).to.equal(-Infinity);
      expect(scorePair(original, neighbour(Math.round(320_000 * 0.78)))).to.equal(-Infinity);
    });

    it('does not match with prices close enough to be a copy: the floors in the texts differ', () => {
      expect(scorePair(original, neighbour(326_000))).to.equal(-Infinity);
    });

    it('does not match on the evidence either when its text gives no floor', () => {
      const noFloor = features({
        source: 'leboncoin',
        reference: 'N1',
        surface: 65.4,
        price: 326_000,
        description: neighbourText.replace(' situé au 5e étage', ''),
        dpe: 'E',
        ges: 'D',
        dpe_value: 268,
        ges_value: 41,
      });
      const detail = scoreDetail(original, noFloor);
      expect(detail.score).to.be.below(MATCH_THRESHOLD);
      expect(detail.parts.text).to.be.below(0);
      expect(detail.parts.dpe).to.be.below(0);
    });

    it('tells the floors apart: the same template text, agency and price, another floor', () => {
      const upstairs = features({
        source: 'leboncoin',
        reference: 'N3',
        surface: 65.4,
        description: DESCRIPTION.replace('2e étage', '5e étage'),
        dpe_value: null,
        ges_value: null,
        year_built: null,
      });
      expect(scorePair(original, upstairs)).to.equal(-Infinity);
      // The same floor is evidence; a floor stated on one side only is none.
      expect(scoreDetail(original, features({ source: 'pap', reference: 'P2' })).parts.floor).to.equal(1);
      expect(scoreDetail(original, features({ source: 'pap', reference: 'P3', description: 'Appartement lumineux, balcon.' })).parts).to.not.have.property(
        'floor',
      );
    });

    it('does not match with the same agency and the same energy class either', () => {
      const sameAgency = features({
        source: 'leboncoin',
        reference: 'N2',
        surface: 65.4,
        price: 330_000,
        description: neighbourText,
        dpe_value: 231,
        ges_value: 27,
      });
      expect(scorePair(original, sameAgency)).to.be.below(MATCH_THRESHOLD);
    });
  });

  it('never matches two listings of one site, even identical ones', () => {
    expect(scorePair(original, features({ source: 'seloger', reference: 'S2', surface: 65.4 }))).to.equal(-Infinity);
  });

  it('applies the hard limits: surface 3 % (1 m² for small ones), rooms, price 10 %', () => {
    const base = features({ source: 'seloger', reference: 'S1', surface: 100, price: 300_000 });
    const other = (o: Parameters<typeof features>[0]) => scorePair(base, features({ source: 'pap', reference: 'P1', surface: 100, price: 300_000, ...o }));
    expect(other({ surface: 103 })).to.be.above(-Infinity);
    expect(other({ surface: 103.5 })).to.equal(-Infinity);
    expect(other({ rooms: 4 })).to.equal(-Infinity);
    // 10 % of the higher price.
    expect(other({ price: 334_000 })).to.equal(-Infinity);
    expect(other({ price: 329_000 })).to.be.above(-Infinity);
    const studio = features({ source: 'seloger', reference: 'S9', surface: 14.5, rooms: 1, price: 90_000 });
    expect(scorePair(studio, features({ source: 'pap', reference: 'P9', surface: 14, rooms: 1, price: 90_000 }))).to.be.above(-Infinity);
    expect(scorePair(studio, features({ source: 'pap', reference: 'P9', surface: 13.4, rooms: 1, price: 90_000 }))).to.equal(-Infinity);
  });

  it('takes a value missing on either side as no evidence', () => {
    const bare = {
      ...SPARSE,
      seller_type: 'Particulier' as const,
      price: null,
      surface: null,
      rooms: null,
    };
    const detail = scoreDetail(features({ source: 'seloger', ...bare }), features({ source: 'pap', ...bare }));
    expect(detail).to.deep.equal({ score: 0, parts: {} });
  });

  it('is symmetric', () => {
    fc.assert(
      fc.property(
        fc.record({
          price: fc.integer({ min: 280_000, max: 360_000 }),
          surface: fc.double({ min: 60, max: 70, noNaN: true }),
          dpe: fc.constantFrom('C', 'D', null),
        }),
        fc.record({
          price: fc.integer({ min: 280_000, max: 360_000 }),
          surface: fc.double({ min: 60, max: 70, noNaN: true }),
          dpe: fc.constantFrom('C', 'D', null),
        }),
        (a, b) => {
          const fa = features({ source: 'seloger', ...a } as never);
          const fb = features({ source: 'pap', reference: 'P', ...b } as never);
          expect(scorePair(fa, fb)).to.equal(scorePair(fb, fa));
        },
      ),
    );
  });
});

describe('dedup floor of a flat', () => {
  it('reads the floor French listings state', () => {
    expect(floorOf('situé au 3e étage avec ascenseur')).to.equal('3');
    expect(floorOf('Au 1er étage : séjour')).to.equal('1');
    expect(floorOf('au 2ème étage')).to.equal('2');
    expect(floorOf('APPARTEMENT AU 12EME ETAGE')).to.equal('12');
    expect(floorOf('situé au rez-de-chaussée')).to.equal('0');
    expect(floorOf('RDC sur jardin')).to.equal('0');
    expect(floorOf('au dernier étage sans ascenseur')).to.equal('last');
    expect(floorOf('immeuble de 5 étages, cave')).to.equal(null);
    expect(floorOf(null)).to.equal(null);
  });
});

describe('dedup text shingles', () => {
  it('scores a cut copy as its full text (containment in the shorter text)', () => {
    expect(containment(shingles(DESCRIPTION), shingles(DESCRIPTION.slice(0, 120)))).to.equal(1);
  });

  it('ignores case and accents, and tells unrelated texts apart', () => {
    expect(containment(shingles('Séjour LUMINEUX, balcon'), shingles('sejour lumineux balcon'))).to.equal(1);
    expect(containment(shingles(DESCRIPTION), shingles('Maison de campagne avec grange et pigeonnier, terrain de 3 000 m².'))).to.be.below(0.1);
  });

  it('gives no evidence for a missing text', () => {
    expect(containment(shingles(null), shingles(DESCRIPTION))).to.equal(null);
    expect(containment(shingles(''), shingles(''))).to.equal(null);
  });
});
