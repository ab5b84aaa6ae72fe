import { expect } from 'chai';
import { normalise } from './helpers.js';
import { parseDate } from '../../../indexer/normalise/dates.js';

describe('normaliseRecord: dates', () => {
  describe('dates', () => {
    const cases: [string, string][] = [
      ['2025-06-12T10:30:00.000Z', '2025-06-12T10:30:00.000Z'],
      ['2025-06-12T10:30:00+02:00', '2025-06-12T08:30:00.000Z'],
      ['2025-06-12T10:30:00', '2025-06-12T10:30:00.000Z'],
      ['2025-06-12 10:30', '2025-06-12T10:30:00.000Z'],
      ['2025-06-12', '2025-06-12T00:00:00.000Z'],
      ['12/06/2025', '2025-06-12T00:00:00.000Z'],
      ['12/06/2025 14:05', '2025-06-12T14:05:00.000Z'],
      ['1er juillet 2025', '2025-07-01T00:00:00.000Z'],
      ['Publiée le 9 mars 2025', '2025-03-09T00:00:00.000Z'],
      ['Mise à jour le 12/06/2025', '2025-06-12T00:00:00.000Z'],
      ['lundi 9 juin 2025', '2025-06-09T00:00:00.000Z'],
    ];
    for (const [input, expected] of cases) {
      it(`${JSON.stringify(input)} is ${expected}`, () => {
        const record = normalise({ collected_at: input, published_at: input });
        expect(record.content.updated_at).to.equal(expected);
        expect(record.content.published_at).to.equal(expected);
        expect(record.collectedAt).to.equal(Date.parse(expected));
        expect(record.publishedAt).to.equal(Date.parse(expected));
      });
    }

    it('has no publication date for placeholders, garbage or the future', () => {
      expect(normalise({ published_at: '1970-01-01T00:00:00.000Z' }).publishedAt).to.equal(null);
      expect(normalise({ published_at: 'hier' }).content.published_at).to.equal(null);
      expect(normalise({ published_at: '2031-01-01' }).content.published_at).to.equal(null);
      expect(normalise({ published_at: undefined }).content.published_at).to.equal(null);
    });

    it('refuses impossible calendar dates', () => {
      expect(parseDate('29/02/2025')).to.equal(null);
      expect(parseDate('29/02/2024')).to.equal(Date.UTC(2024, 1, 29));
      expect(parseDate('2025-06-12T25:00')).to.equal(null);
    });
  });
});
