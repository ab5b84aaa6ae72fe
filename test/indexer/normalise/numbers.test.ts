import { expect } from 'chai';
import { normalise, content, NNBSP } from './helpers.js';
import { parseNumber } from '../../../indexer/normalise/numbers.js';

describe('normaliseRecord: numbers', () => {
  describe('numbers', () => {
    const cases: [unknown, number | null][] = [
      ['350 000 €', 350000],
      ['350.000 €', 350000],
      ['1 200 €/mois CC', 1200],
      ['1 250 000', 1250000],
      [`1${NNBSP}250${NNBSP}000 €`, 1250000],
      ['1\u00a0250\u00a0000 €', 1250000],
      ['1,250,000', 1250000],
      ['1.250.000,50 €', 1250000.5],
      ['327 000.00 €', 327000],
      ['350k€', 350000],
      ['45,5 m²', 45.5],
      ['72.12', 72.12],
      ['0,125', 0.125],
      ['à partir de 250 000 €', 250000],
      [350000, 350000],
      ['N/A', null],
      ['Prix sur demande', null],
      ['', null],
      [Number.NaN, null],
    ];
    for (const [input, expected] of cases) {
      it(`parses ${JSON.stringify(input)} as ${expected}`, () => {
        expect(parseNumber(input)).to.equal(expected);
      });
    }

    it('reads price and surfaces from text', () => {
      const c = content({ price: '350 000 €', surface: '45,5 m²', land_surface: '1 200 m²', living_room_surface: '25 m2' });
      expect(c.price).to.equal(350000);
      expect(c.surface).to.equal(45.5);
      expect(c.land_surface).to.equal(1200);
      expect(c.living_room_surface).to.equal(25);
    });

    it('drops negative, zero and absurd values', () => {
      expect(content({ price: '-5 €' }).price).to.equal(null);
      expect(content({ price: 0 }).price).to.equal(null);
      expect(content({ surface: '0 m²' }).surface).to.equal(null);
      expect(content({ surface: 150000 }).surface).to.equal(null);
      expect(content({ surface: 'N/A' }).surface).to.equal(null);
      expect(content({ bedrooms: -1 }).bedrooms).to.equal(null);
    });

    it('reads whole counts ("4.0" is 4, 3.6 is no count) and keeps year_built within 1700..2100', () => {
      const c = content({ rooms: '4.0', bedrooms: '2 chambres', bathrooms: 1, toilets: '1', year_built: '1975' });
      expect(c).to.include({ rooms: 4, bedrooms: 2, bathrooms: 1, toilets: 1, year_built: 1975 });
      expect(normalise({ rooms: '3.6' }).nulled).to.deep.equal(['rooms']);
      expect(content({ year_built: 1650 }).year_built).to.equal(null);
      expect(content({ year_built: '2150' }).year_built).to.equal(null);
      expect(content({ year_built: 'construit en 2024' }).year_built).to.equal(2024);
    });

    it('computes the price per m² in whole euros', () => {
      expect(content({ price: '350 000 €', surface: '45,5 m²' }).price_per_m2).to.equal(7692);
      expect(content({ price: '350 000 €' }).price_per_m2).to.equal(null);
      expect(content({ price: '350 000 €' }).price_per_m2_color).to.equal(null);
    });

    it('labels the price in French format, per month for a rental', () => {
      expect(content({ price: 350000 }).price_label).to.equal(`350${NNBSP}000 €`);
      expect(content({ price: '1 250 000 €' }).price_label).to.equal(`1${NNBSP}250${NNBSP}000 €`);
      expect(content({ price: '1 200 €/mois CC' }).price_label).to.equal(`1${NNBSP}200 €/mois`);
      expect(content({ price: '612,5', transaction: 'location' }).price_label).to.equal('612,50 €/mois');
      expect(content({ price: 950 }).price_label).to.equal('950 €');
      expect(content({ price: undefined }).price_label).to.equal(null);
    });

    it('groups thousands exactly as Intl.NumberFormat fr-FR does', () => {
      for (const price of [5, 950, 1200, 35000, 350000, 1250000, 12345678]) {
        expect(content({ price }).price_label).to.equal(`${new Intl.NumberFormat('fr-FR').format(price)} €`);
      }
    });
  });
});
