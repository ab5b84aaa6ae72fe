import { expect } from 'chai';
import { NormaliseError, normaliseRecord, parseDate, parseNumber, type NormaliseContext, type NormalisedRecord } from '../../indexer/normalise.js';
import { RawRecord } from '../../indexer/raw-record.js';
import { REDACTION_MARKER } from '../../indexer/redact.js';
import { ANNONCE_FIELDS, Annonce } from '../../src/core/model/annonce.js';
import { loadCommunes } from '../../src/core/refdata/communes.js';

const SITES: Record<string, string> = { seloger: 'SeLoger', notaires: 'Notaires de France', bienici: "Bien'ici", pap: 'PAP' };
const ctx: NormaliseContext = { communes: loadCommunes(), siteName: (source) => SITES[source] };

const BASE = {
  source: 'seloger',
  reference: 'A-1',
  url: 'https://www.seloger.com/annonces/achat/appartement/lyon-3eme-69/123.htm',
  collected_at: '2025-06-12T10:00:00.000Z',
  title: 'Appartement 3 pièces',
};

/** Normalise a record given as a collector writes it (validated by the zod RawRecord first). */
function normalise(fields: Record<string, unknown>): NormalisedRecord {
  return normaliseRecord(RawRecord.parse({ ...BASE, ...fields }), ctx);
}
const content = (fields: Record<string, unknown>) => normalise(fields).content;

function rejection(fields: Record<string, unknown>): NormaliseError {
  try {
    normalise(fields);
  } catch (error) {
    expect(error).to.be.instanceOf(NormaliseError);
    return error as NormaliseError;
  }
  expect.fail('expected a NormaliseError');
}

const NNBSP = '\u202f';

describe('normaliseRecord', () => {
  describe('output shape', () => {
    it('writes every public Annonce field of ListingContent, in the documented order', () => {
      const expected = ANNONCE_FIELDS.filter((f) => !['dedup_key', 'sources', 'price_history', 'seller_contact'].includes(f));
      expect(Object.keys(content({}))).to.deep.equal(expected);
    });

    it('is a valid Annonce once the group fields are added, with null for the unknown', () => {
      const c = content({ title: undefined, type: 'maison', price: '350 000 €', surface: '100 m²', city: 'Annecy' });
      const annonce = Annonce.parse({ ...c, seller_contact: null, price_history: null, dedup_key: null, sources: null });
      expect(annonce.type).to.equal('Maison');
      expect(c.bedrooms).to.equal(null);
      expect(c.kitchen).to.equal(null);
      expect(c.elevator).to.equal(null);
    });

    it('copies source, reference and the listing URL', () => {
      const c = content({ reference: 123456 });
      expect(c.source).to.equal('seloger');
      expect(c.reference).to.equal('123456');
      expect(c.external_url).to.equal(BASE.url);
    });
  });

  describe('rejects records that cannot be used', () => {
    for (const collectedAt of ['hier', '31/02/2025', '2025-13-01', '12/06', 'N/A']) {
      it(`collected_at ${JSON.stringify(collectedAt)}`, () => {
        expect(rejection({ collected_at: collectedAt }).field).to.equal('collected_at');
      });
    }


    it('a site missing from the sources configuration', () => {
      expect(rejection({ source: 'inconnu' }).field).to.equal('source');
    });

    it('a listing URL that is not http(s)', () => {
      expect(rejection({ url: 'N/A' }).field).to.equal('url');
    });

    it('accepts the internal source without configuration', () => {
      expect(content({ source: 'interne' }).is_internal).to.equal(true);
    });
  });

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

  describe('type', () => {
    const cases: [string, string][] = [
      ['appartement', 'Appartement'], ['Appt', 'Appartement'], ['apt', 'Appartement'], ['T3', 'Appartement'],
      ['F2', 'Appartement'], ['Studio', 'Appartement'], ['duplex', 'Appartement'], ['Loft', 'Appartement'],
      ['triplex', 'Appartement'], ['Appartement T4', 'Appartement'],
      ['maison', 'Maison'], ['Villa', 'Maison'], ['maison de ville', 'Maison'], ['Pavillon', 'Maison'],
      ['Longère', 'Maison'], ['mas', 'Maison'], ['Chalet', 'Maison'], ['ferme', 'Maison'], ['Château', 'Maison'],
      ['castle', 'Maison'], ['propriété', 'Maison'], ['Bastide', 'Maison'], ['Maison avec garage', 'Maison'],
      ['terrain', 'Terrain'], ['Terrain à bâtir', 'Terrain'],
      ['parking', 'Parking'], ['Garage', 'Parking'], ['box', 'Parking'],
      ['Local commercial', 'Local commercial'], ['commerce', 'Local commercial'], ['Boutique', 'Local commercial'],
      ['Fonds de commerce', 'Local commercial'],
      ['Immeuble', 'Immeuble'], ['immeuble de rapport', 'Immeuble'],
      ['bureau', 'Bureau'], ['Bureaux', 'Bureau'], ['local professionnel', 'Bureau'],
      ['péniche', 'Autre'], ['viager', 'Autre'],
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
      ['vente', 'vente'], ['Achat', 'vente'], ['à vendre', 'vente'], ['sale', 'vente'],
      ['location', 'location'], ['Louer', 'location'], ['À louer', 'location'], ['rent', 'location'],
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
      [undefined, 'active'], ['active', 'active'], ['en ligne', 'active'], ['bizarre', 'active'],
      ['vendu', 'vendue'], ['Vendue', 'vendue'], ['sold', 'vendue'],
      ['Sous compromis', 'sous_compromis'], ['sous_compromis', 'sous_compromis'], ['under offer', 'sous_compromis'],
      ['archivée', 'archivee'], ['archived', 'archivee'],
      ['retiré', 'retiree'], ['Retirée', 'retiree'], ['withdrawn', 'retiree'],
    ];
    for (const [input, expected] of cases) {
      it(`${JSON.stringify(input)} is ${expected}`, () => {
        expect(normalise({ status: input }).status).to.equal(expected);
      });
    }
  });

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
      expect(content({ city: 'Saint-Denis', department: '93' })).to.include({ city: 'Saint-Denis', postal_code: null, department: '93', region: 'Île-de-France' });
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

  describe('privacy', () => {
    it('redacts phones and e-mails from description and title', () => {
      const c = content({
        title: 'Maison 5 pièces - tél 06 12 34 56 78',
        description: 'Belle maison. Contact : 06.12.34.56.78 ou jean.dupont@agence.fr',
      });
      expect(c.title).to.equal(`Maison 5 pièces - tél ${REDACTION_MARKER}`);
      expect(c.description).to.equal(`Belle maison. Contact : ${REDACTION_MARKER} ou ${REDACTION_MARKER}`);
    });

    it('turns an HTML description into text, entities decoded, before redacting', () => {
      const c = content({
        description: '<p>S&eacute;jour de 30&nbsp;m&sup2;<br/>Cuisine &amp; cellier</p><p>Mail : contact&#64;agence.fr</p><script>x()</script>',
      });
      expect(c.description).to.equal(`Séjour de 30 m²\nCuisine & cellier\n\nMail : ${REDACTION_MARKER}`);
    });

    it('keeps the seller name of professionals only', () => {
      expect(content({ seller_type: 'agence', seller_name: 'Agence du Centre' })).to.include({ seller_type: 'Pro', seller_name: 'Agence du Centre' });
      expect(content({ seller_type: 'Notaire', seller_name: 'Office notarial' }).seller_type).to.equal('Pro');
      expect(content({ seller_type: 'mandataire' }).seller_type).to.equal('Pro');
      expect(content({ seller_type: 'particulier', seller_name: 'Jean Dupont' })).to.include({ seller_type: 'Particulier', seller_name: null });
      expect(content({ seller_type: 'owner', seller_name: 'John' })).to.include({ seller_type: 'Particulier', seller_name: null });
      expect(content({ seller_name: 'Jean Dupont' })).to.include({ seller_type: null, seller_name: null });
      expect(content({ seller_name: 'Century 21 Agence du Port' })).to.include({ seller_type: 'Pro', seller_name: 'Century 21 Agence du Port' });
    });

    it('never copies contact fields anywhere', () => {
      const c = content({
        seller_type: 'particulier', seller_name: 'Jean Dupont', seller_phone: '06 99 88 77 66', seller_email: 'jd@example.org',
        contact_phone: '06 11 22 33 44', email: 'x@example.org',
        legal_info: { honoraires: '5 % TTC', telephone: '06 55 44 33 22', mentions: 'Contact 06 55 44 33 21' },
      });
      const json = JSON.stringify(c);
      for (const secret of ['99 88', 'jd@', '11 22', 'x@example', '55 44', 'Dupont']) expect(json).not.to.include(secret);
      expect(c.legal_info).to.deep.equal({ honoraires: '5 % TTC', mentions: `Contact ${REDACTION_MARKER}` });
    });
  });

  describe('images and other fields', () => {
    it('splits a string of URLs on |, commas and whitespace, keeps http(s) only, deduplicated in order', () => {
      const c = content({
        images: 'https://img.example.org/1.jpg|https://img.example.org/2.jpg, https://img.example.org/1.jpg\nhttp://img.example.org/3.jpg ftp://x/4.jpg not-a-url',
      });
      expect(c.images).to.deep.equal(['https://img.example.org/1.jpg', 'https://img.example.org/2.jpg', 'http://img.example.org/3.jpg']);
      expect(c.images_count).to.equal(3);
    });

    it('keeps commas inside a URL and takes arrays as they are', () => {
      const c = content({ images: ['https://cdn.example.org/w_300,h_200/a.jpg', 'https://cdn.example.org/w_300,h_200/a.jpg', '//cdn.example.org/b.jpg', ''] });
      expect(c.images).to.deep.equal(['https://cdn.example.org/w_300,h_200/a.jpg', 'https://cdn.example.org/b.jpg']);
      expect(content({}).images).to.deep.equal([]);
      expect(content({}).images_count).to.equal(0);
    });

    it('reads booleans from true/false, oui/non, yes/no, 1/0', () => {
      const c = content({ elevator: 'oui', parking: 1, parking_interior: 'non', parking_exterior: false, cellar: 'yes', garden: 'no', exclusive: 'peut-être' });
      expect(c).to.include({ elevator: true, parking: true, parking_interior: false, parking_exterior: false, cellar: true, garden: false, exclusive: null });
      expect(content({ elevator: 0, cellar: 'true', garden: 'False' })).to.include({ elevator: false, cellar: true, garden: false });
    });

    it('sets is_internal from the source or the flag', () => {
      expect(content({}).is_internal).to.equal(false);
      expect(content({ is_internal: 'oui' }).is_internal).to.equal(true);
      expect(content({ source: 'interne' }).is_internal).to.equal(true);
    });

    it('keeps legal_info as given, a text or an object', () => {
      expect(content({ legal_info: 'Honoraires 5 % TTC à la charge du vendeur' }).legal_info).to.equal('Honoraires 5 % TTC à la charge du vendeur');
      expect(content({ legal_info: { honoraires: '5 %', copropriete: true } }).legal_info).to.deep.equal({ honoraires: '5 %', copropriete: true });
      expect(content({}).legal_info).to.equal(null);
    });

    it('copies http(s) media URLs and plain text fields', () => {
      const c = content({ video_url: 'https://youtu.be/x', virtual_tour_url: 'javascript:alert(1)', dpe_chart_url: 'https://x/dpe.png', kitchen: 'équipée', real_estate_network: 'Orpi' });
      expect(c).to.include({ video_url: 'https://youtu.be/x', virtual_tour_url: null, dpe_chart_url: 'https://x/dpe.png', kitchen: 'équipée', real_estate_network: 'Orpi' });
    });
  });

  describe('title', () => {
    it('is built from type, rooms, surface and city when absent', () => {
      expect(content({ title: undefined, type: 'T3', surface: '65 m²', city: 'Lyon' }).title).to.equal('Appartement 3 pièces 65 m² à Lyon');
      expect(content({ title: undefined, type: 'studio', surface: '18,5' }).title).to.equal('Appartement 1 pièce 18,5 m²');
      expect(content({ title: undefined, type: 'terrain', city: 'Annecy' }).title).to.equal('Terrain à Annecy');
    });

    it('is cleaned of HTML and extra whitespace', () => {
      expect(content({ title: '  Maison &amp; jardin\n <b>calme</b> ' }).title).to.equal('Maison & jardin calme');
    });
  });

  describe('sparse records (no title, no type)', () => {
    const SELOGER_LIKE = {
      source: 'seloger', reference: '262973311', url: 'https://www.seloger.com/annonces/achat/appartement/toulon-83/brunet/262973311.htm',
      collected_at: '2026-11-10T16:37:09Z', transaction: 'vente', price: '210000.0', surface: '65.0', rooms: '4.0', city: '83100',
      images: ['https://img.example/1.jpg'], title: undefined,
    };

    it('are stored: the type from the URL path, a title built from what is known, the city from the postal code', () => {
      const c = content(SELOGER_LIKE);
      expect(c).to.include({ type: 'Appartement', title: 'Appartement 4 pièces 65 m² à Toulon', transaction_type: 'vente', price: 210000, surface: 65, rooms: 4, postal_code: '83100', city: 'Toulon' });
    });

    it('take the type from the site category, then from the description opening, else Autre', () => {
      const bare = { ...SELOGER_LIKE, url: 'https://www.leboncoin.fr/ad/ventes_immobilieres/1' };
      expect(content({ ...bare, category: 'Ventes immobilières > Maison' }).type).to.equal('Maison');
      expect(content({ ...bare, description: 'Au calme, villa de plain-pied avec jardin' }).type).to.equal('Maison');
      // A type named far into the text is another place ("près de la maison de santé"), not this one.
      expect(content({ ...bare, description: `${'Beau bien lumineux et calme. '.repeat(4)}Proche de la maison de santé.` }).type).to.equal('Autre');
      expect(content(bare)).to.include({ type: 'Autre', title: 'Bien 4 pièces 65 m² à Toulon' });
    });
  });

  describe('values that do not fit their field', () => {
    it('are null and named in `nulled`, never a wrong number', () => {
      const record = normalise({ bedrooms: '55,8 m²', surface: '1er étage', land_surface: 'dès le 30/06/2027', rooms: '3 pièces', price: '65 m²' });
      expect(record.content).to.include({ bedrooms: null, surface: null, land_surface: null, rooms: 3, price: null });
      expect([...record.nulled].sort()).to.deep.equal(['bedrooms', 'land_surface', 'price', 'surface']);
    });

    it('keep the values written as collectors write them', () => {
      const record = normalise({ surface: 'env. 45,5 m² Carrez', land_surface: '1,5 ha', rooms: 'T3', bedrooms: '2 ch.', price: '350 000 € FAI', year_built: '1975.0' });
      expect(record.content).to.include({ surface: 45.5, land_surface: 15000, rooms: 3, bedrooms: 2, price: 350000, year_built: 1975 });
      expect(record.nulled).to.deep.equal([]);
    });

    it('placeholders are absent values, not nulled ones', () => {
      expect(normalise({ surface: 'N/A', bedrooms: '', price: null, rooms: '0' }).nulled).to.deep.equal([]);
    });
  });

  describe('on real collector shapes', () => {
    it('a notaires.fr sale', () => {
      const record = normalise({
        source: 'notaires', reference: 1847402, collected_at: '2025-06-12T10:00:00Z',
        url: 'https://www.immobilier.notaires.fr/fr/annonce-immo/vente/appartement/paris-08-75008/1847402',
        title: 'Achat :Appartement T4- Paris 8 - Paris (75)', type: 'Appartement T4', city: '- Paris 8 - Paris (75)',
        department: '75', price: '955000', surface: '72.12', rooms: '4',
        description: 'Notaire - F4 Rue Berryer. Contact : Thomas AUCLAIR : 06.74.19.74.81\nClasse énergie : D - Classe climat : B',
      });
      expect(record.status).to.equal('active');
      expect(record.content).to.include({
        type: 'Appartement', transaction_type: 'vente', price: 955000, surface: 72.12, rooms: 4, price_per_m2: 13242,
        city: 'Paris', postal_code: '75008', department: '75', region: 'Île-de-France', latitude: 48.873, longitude: 2.311,
        dpe: 'D', ges: 'B',
      });
      expect(record.content.description).to.include(`AUCLAIR : ${REDACTION_MARKER}`);
    });

    it("a Bien'ici castle with a placeholder publication date and repeated photos", () => {
      const record = normalise({
        source: 'bienici', reference: '402', city: 'Montvalent', postal_code: 46600, type: 'castle', rooms: 26, bedrooms: 13,
        price: 797600, published_at: '1970-01-01T00:00:00.000Z', url: 'https://www.bienici.com/annonce/vente/montvalent/402',
        title: 'Château à vendre dans le lot avec dépendances et piscine.',
        images: 'https://media.example.org/a.jpg?DATEMAJ=23/11/2022-09:45:40, https://media.example.org/b.jpg?DATEMAJ=23/11/2022-09:45:40, https://media.example.org/a.jpg?DATEMAJ=23/11/2022-09:45:40',
      });
      expect(record.content).to.include({ type: 'Maison', city: 'Montvalent', department: '46', region: 'Occitanie', images_count: 2, published_at: null });
    });

    it('a private rental without description', () => {
      const c = content({ source: 'pap', title: '1 chambre appartement de 31m² à Paris', price: '690 €/mois', surface: '31', rooms: 1, city: '92110 Clichy, France', seller_type: 'particulier' });
      expect(c).to.include({ transaction_type: 'location', price_label: '690 €/mois', city: 'Clichy', postal_code: '92110', department: '92', seller_name: null });
    });
  });

});
