import { expect } from 'chai';
import { normalise, content } from './helpers.js';

describe('normaliseRecord: type, transaction, status', () => {
  describe('type', () => {
    const cases: [string, string][] = [
      ['appartement', 'Appartement'],
      ['Appt', 'Appartement'],
      ['apt', 'Appartement'],
      ['T3', 'Appartement'],
      ['F2', 'Appartement'],
      ['Studio', 'Appartement'],
      ['duplex', 'Appartement'],
      ['Loft', 'Appartement'],
      ['triplex', 'Appartement'],
      ['Appartement T4', 'Appartement'],
      ['maison', 'Maison'],
      ['Villa', 'Maison'],
      ['maison de ville', 'Maison'],
      ['Pavillon', 'Maison'],
      ['Longère', 'Maison'],
      ['mas', 'Maison'],
      ['Chalet', 'Maison'],
      ['ferme', 'Maison'],
      ['Château', 'Maison'],
      ['castle', 'Maison'],
      ['propriété', 'Maison'],
      ['Bastide', 'Maison'],
      ['Maison avec garage', 'Maison'],
      ['terrain', 'Terrain'],
      ['Terrain à bâtir', 'Terrain'],
      ['parking', 'Parking'],
      ['Garage', 'Parking'],
      ['box', 'Parking'],
      ['Local commercial', 'Local commercial'],
      ['commerce', 'Local commercial'],
      ['Boutique', 'Local commercial'],
      ['Fonds de commerce', 'Local commercial'],
      ['Immeuble', 'Immeuble'],
      ['immeuble de rapport', 'Immeuble'],
      ['bureau', 'Bureau'],
      ['Bureaux', 'Bureau'],
      ['local professionnel', 'Bureau'],
      ['péniche', 'Autre'],
      ['viager', 'Autre'],
    ];
    for (const [input, expected] of cases) {
      it(`${JSON.stringify(input)} is ${expected}`, () => {
        expect(content({ type: input, title: 'Annonce 1', url: 'https://www.seloger.com/annonces/123.htm' }).type).to.equal(expected);
      });
    }

    it('reads the type from the title when the type field is absent', () => {
      expect(content({ type: undefined, title: 'Achat :Maison / villa - Grasse' }).type).to.equal('Maison');
      expect(content({ type: undefined, title: 'Belle opportunité', url: 'https://www.seloger.com/annonces/123.htm' }).type).to.equal('Autre');
      expect(content({ type: 'viager', title: 'Appartement en viager occupé' }).type).to.equal('Appartement');
    });

    it('takes the rooms from T3/F3 and studio when the rooms field is absent', () => {
      expect(content({ type: 'T3' }).rooms).to.equal(3);
      expect(content({ type: 'F4' }).rooms).to.equal(4);
      expect(content({ type: 'Appartement T2 bis' }).rooms).to.equal(2);
      expect(content({ type: 'studio' }).rooms).to.equal(1);
      expect(content({ type: 'T3', rooms: 4 }).rooms).to.equal(4);
      expect(content({ type: 'appartement', title: 'Appartement T4- Paris 8' }).rooms).to.equal(4);
      expect(content({ type: 'maison', title: 'Maison 5 pièces avec jardin' }).rooms).to.equal(5);
      expect(content({ type: 'maison', title: 'Belle maison' }).rooms).to.equal(null);
    });
  });

  describe('transaction', () => {
    const byField: [string, string][] = [
      ['vente', 'vente'],
      ['Achat', 'vente'],
      ['à vendre', 'vente'],
      ['sale', 'vente'],
      ['location', 'location'],
      ['Louer', 'location'],
      ['À louer', 'location'],
      ['rent', 'location'],
    ];
    for (const [input, expected] of byField) {
      it(`transaction ${JSON.stringify(input)} is ${expected}`, () => {
        expect(content({ transaction: input, url: 'https://example.org/1' }).transaction_type).to.equal(expected);
      });
    }

    it('falls back on the price text: /mois, CC, HC, loyer', () => {
      const url = 'https://example.org/1';
      expect(content({ url, price: '1 200 €/mois CC' }).transaction_type).to.equal('location');
      expect(content({ url, price: '850 € CC' }).transaction_type).to.equal('location');
      expect(content({ url, price: '700 € HC' }).transaction_type).to.equal('location');
      expect(content({ url, price: 'Loyer : 640 €' }).transaction_type).to.equal('location');
      expect(content({ url, price: '350 000 €' }).transaction_type).to.equal('vente');
    });

    it('then on the URL path and on a title that opens with the transaction, else vente', () => {
      expect(content({ url: 'https://www.example.org/location/appartement/1' }).transaction_type).to.equal('location');
      expect(content({ url: 'https://www.immobilier.notaires.fr/fr/annonce-immo/vente/maison/1' }).transaction_type).to.equal('vente');
      expect(content({ url: 'https://example.org/1', title: 'Location appartement 2 pièces' }).transaction_type).to.equal('location');
      expect(content({ url: 'https://example.org/1', price: 1200 }).transaction_type).to.equal('vente');
    });

    it('trusts the transaction field over the price text', () => {
      expect(content({ transaction: 'vente', price: '200 000 € CC' }).transaction_type).to.equal('vente');
    });
  });

  describe('status', () => {
    const cases: [string | undefined, string][] = [
      [undefined, 'active'],
      ['active', 'active'],
      ['en ligne', 'active'],
      ['bizarre', 'active'],
      ['vendu', 'vendue'],
      ['Vendue', 'vendue'],
      ['sold', 'vendue'],
      ['Sous compromis', 'sous_compromis'],
      ['sous_compromis', 'sous_compromis'],
      ['under offer', 'sous_compromis'],
      ['archivée', 'archivee'],
      ['archived', 'archivee'],
      ['retiré', 'retiree'],
      ['Retirée', 'retiree'],
      ['withdrawn', 'retiree'],
    ];
    for (const [input, expected] of cases) {
      it(`${JSON.stringify(input)} is ${expected}`, () => {
        expect(normalise({ status: input }).status).to.equal(expected);
      });
    }
  });
});
