import { expect } from 'chai';
import { content } from './helpers.js';

describe('normaliseRecord: location', () => {
  describe('location, completed and corrected from the commune table', () => {
    it('uses the official name of the postal code commune matching the city', () => {
      const c = content({ city: 'aix en provence', postal_code: '13100' });
      expect(c).to.include({ city: 'Aix-en-Provence', postal_code: '13100', department: '13', region: "Provence-Alpes-Côte d'Azur" });
      expect(content({ city: 'PARIS', postal_code: '75016' })).to.include({ city: 'Paris', department: '75', region: 'Île-de-France' });
      expect(content({ city: 'Aix-en-Provence Centre', postal_code: '13100' }).city).to.equal('Aix-en-Provence');
    });

    it('takes the only commune of a postal code when the city is absent or unknown', () => {
      expect(content({ postal_code: '74400' })).to.include({ city: 'Chamonix-Mont-Blanc', department: '74' });
      expect(content({ city: 'Chamonix', postal_code: '74400' }).city).to.equal('Chamonix-Mont-Blanc');
    });

    it('keeps the department but no city when a postal code has several communes and no city', () => {
      expect(content({ postal_code: '13100' })).to.include({ city: null, postal_code: '13100', department: '13', latitude: null });
    });

    it('fills the postal code of an unambiguous city', () => {
      expect(content({ city: 'Chamonix-Mont-Blanc' })).to.include({ postal_code: '74400', department: '74', region: 'Auvergne-Rhône-Alpes' });
    });

    it('fills department and region but not the postal code of a city with several postal codes', () => {
      expect(content({ city: 'Annecy' })).to.include({ city: 'Annecy', postal_code: null, department: '74', latitude: 45.902, longitude: 6.126 });
      expect(content({ city: 'Saint-Denis', department: '93' })).to.include({
        city: 'Saint-Denis',
        postal_code: null,
        department: '93',
        region: 'Île-de-France',
      });
      expect(content({ city: 'Saint-Denis' })).to.include({ city: 'Saint-Denis', department: null, region: null });
    });

    it('reads postal codes and arrondissements in the city text', () => {
      expect(content({ city: 'Paris 8 (75008)' })).to.include({ city: 'Paris', postal_code: '75008', department: '75' });
      expect(content({ city: 'Paris 8e' })).to.include({ city: 'Paris', postal_code: '75008' });
      expect(content({ city: 'Lyon 3ème' })).to.include({ city: 'Lyon', postal_code: '69003' });
      expect(content({ city: '- Paris 16 - Paris (75)' })).to.include({ city: 'Paris', postal_code: '75016' });
      expect(content({ city: '75008 Paris' })).to.include({ city: 'Paris', postal_code: '75008' });
    });

    it('reads a full address: the part with the postal code is the city, streets and country are not', () => {
      expect(content({ city: '4 Square Auguste Renoir, 75014 Paris, France' })).to.include({ city: 'Paris', postal_code: '75014', department: '75' });
      expect(content({ city: '11 Rue Gisèle Casadesus, 59160 Lomme, France' })).to.include({ city: 'Lomme', postal_code: '59160', department: '59' });
      expect(content({ city: 'Marseille, Bouches-du-Rhône, France' })).to.include({ city: 'Marseille', department: '13' });
    });

    it('recognises a commune named with a district or by a short form, when only one fits', () => {
      expect(content({ city: 'Hellemmes-Lille', postal_code: '59260' })).to.include({ city: 'Lille', latitude: 50.631 });
      expect(content({ city: 'Montignac', postal_code: '24290' })).to.include({ city: 'Montignac-Lascaux', department: '24' });
    });

    it('handles Corsica, overseas departments and postal codes that lost their leading zero', () => {
      expect(content({ city: 'Ajaccio' })).to.include({ postal_code: null, department: '2A', region: 'Corse', latitude: 41.923 });
      expect(content({ postal_code: '20000' })).to.include({ city: 'Ajaccio', department: '2A', region: 'Corse' });
      expect(content({ postal_code: '97100' })).to.include({ city: 'Basse-Terre', department: '971', region: 'Guadeloupe' });
      expect(content({ city: 'Nice', postal_code: 6000 })).to.include({ postal_code: '06000', department: '06' });
      expect(content({ postal_code: '74 400' }).city).to.equal('Chamonix-Mont-Blanc');
    });

    it('keeps an unknown city as written, with the department of its postal code', () => {
      expect(content({ city: 'Château-Gombert', postal_code: '13013' })).to.include({ department: '13' });
      expect(content({ city: 'Lieu-dit inconnu' })).to.include({ city: 'Lieu-dit inconnu', postal_code: null, department: null });
    });

    it('uses the commune centre when coordinates are missing or out of range', () => {
      expect(content({ city: 'Chamonix-Mont-Blanc' })).to.include({ latitude: 45.93, longitude: 6.929 });
      expect(content({ postal_code: '75008', latitude: 95, longitude: 2.3 })).to.include({ latitude: 48.873, longitude: 2.311 });
      expect(content({ postal_code: '75008', latitude: 0, longitude: 0 })).to.include({ latitude: 48.873, longitude: 2.311 });
      expect(content({ latitude: 95, longitude: 2.3 })).to.include({ latitude: null, longitude: null });
      expect(content({ latitude: 48.8, longitude: 200 })).to.include({ latitude: null, longitude: null });
    });

    it('rounds coordinates to 3 decimals (about 111 m)', () => {
      expect(content({ postal_code: '75008', latitude: 48.8756614, longitude: '2,3122219' })).to.include({ latitude: 48.876, longitude: 2.312 });
      expect(content({ latitude: -21.11549, longitude: 55.53651 })).to.include({ latitude: -21.115, longitude: 55.537 });
    });
  });
});
