import { expect } from 'chai';
import { content } from './helpers.js';

describe('normaliseRecord: DPE and GES', () => {
  describe('DPE and GES', () => {
    it('reads a letter in any case', () => {
      expect(content({ dpe: 'D', ges: 'b' })).to.include({ dpe: 'D', ges: 'B' });
    });

    it('reads letter and value from prose when the value fields are absent', () => {
      const c = content({ dpe: 'Classe énergie : D (245 kWh/m².an)', ges: 'GES : C (12 kg CO2/m².an)' });
      expect(c).to.include({ dpe: 'D', dpe_value: 245, ges: 'C', ges_value: 12 });
    });

    it('keeps the value fields when given', () => {
      expect(content({ dpe: 'Classe énergie : D (245 kWh/m².an)', dpe_value: '250,5' })).to.include({ dpe: 'D', dpe_value: 250.5 });
    });

    it('has no class for a blank or exempt diagnosis', () => {
      expect(content({ dpe: 'DPE: vierge', ges: 'Non soumis' })).to.include({ dpe: null, ges: null });
      expect(content({ dpe: 'DPE à venir' }).dpe).to.equal(null);
      expect(content({ dpe: 'Z' }).dpe).to.equal(null);
    });

    it('finds the classes in the description when the fields are absent', () => {
      const c = content({ description: 'Beau T3. Classe énergie : E - Classe climat : B - Montant estimé des dépenses...' });
      expect(c).to.include({ dpe: 'E', ges: 'B' });
      expect(content({ description: 'CLASSE ENERGIE F et CLASSE CLIMAT D.' })).to.include({ dpe: 'F', ges: 'D' });
      expect(content({ description: 'Le DPE a été réalisé en 2024.' }).dpe).to.equal(null);
      expect(content({ dpe: 'vierge', description: 'DPE : D' }).dpe).to.equal(null);
    });
  });
});
