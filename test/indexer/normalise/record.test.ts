import { expect } from 'chai';
import { BASE, normalise, content, rejection } from './helpers.js';
import { REDACTION_MARKER } from '../../../indexer/redact.js';
import { ANNONCE_FIELDS, Annonce } from '../../../src/core/model/annonce.js';
import { COMPUTED_ANNONCE_FIELDS } from '../../../src/core/model/stored.js';

describe('normaliseRecord', () => {
  describe('output shape', () => {
    it('writes every public Annonce field of ListingContent, in the documented order', () => {
      const expected = ANNONCE_FIELDS.filter((f) => !(COMPUTED_ANNONCE_FIELDS as readonly string[]).includes(f));
      expect(Object.keys(content({}))).to.deep.equal(expected);
    });

    it('is a valid Annonce once the group fields are added, with null for the unknown', () => {
      const c = content({ title: undefined, type: 'maison', price: '350 000 €', surface: '100 m²', city: 'Annecy' });
      const annonce = Annonce.parse({
        ...c,
        seller_contact: null,
        price_history: null,
        dedup_key: null,
        sources: null,
        first_seen_at: '2026-11-01T10:00:00.000Z',
        relisted_from: null,
      });
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
        seller_type: 'particulier',
        seller_name: 'Jean Dupont',
        seller_phone: '06 99 88 77 66',
        seller_email: 'jd@example.org',
        contact_phone: '06 11 22 33 44',
        email: 'x@example.org',
        legal_info: { honoraires: '5 % TTC', telephone: '06 55 44 33 22', mentions: 'Contact 06 55 44 33 21' },
      });
      const json = JSON.stringify(c);
      for (const secret of ['99 88', 'jd@', '11 22', 'x@example', '55 44', 'Dupont']) expect(json).not.to.include(secret);
      expect(c.legal_info).to.deep.equal({ honoraires: '5 % TTC', mentions: `Contact ${REDACTION_MARKER}` });
    });
  });

  describe('sparse records (no title, no type)', () => {
    const SELOGER_LIKE = {
      source: 'seloger',
      reference: '262973311',
      url: 'https://www.seloger.com/annonces/achat/appartement/toulon-83/brunet/262973311.htm',
      collected_at: '2026-11-10T16:37:09Z',
      transaction: 'vente',
      price: '210000.0',
      surface: '65.0',
      rooms: '4.0',
      city: '83100',
      images: ['https://img.example/1.jpg'],
      title: undefined,
    };

    it('are stored: the type from the URL path, a title built from what is known, the city from the postal code', () => {
      const c = content(SELOGER_LIKE);
      expect(c).to.include({
        type: 'Appartement',
        title: 'Appartement 4 pièces 65 m² à Toulon',
        transaction_type: 'vente',
        price: 210000,
        surface: 65,
        rooms: 4,
        postal_code: '83100',
        city: 'Toulon',
      });
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
      const record = normalise({
        surface: 'env. 45,5 m² Carrez',
        land_surface: '1,5 ha',
        rooms: 'T3',
        bedrooms: '2 ch.',
        price: '350 000 € FAI',
        year_built: '1975.0',
      });
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
        source: 'notaires',
        reference: 1847402,
        collected_at: '2025-06-12T10:00:00Z',
        url: 'https://www.immobilier.notaires.fr/fr/annonce-immo/vente/appartement/paris-08-75008/1847402',
        title: 'Achat :Appartement T4- Paris 8 - Paris (75)',
        type: 'Appartement T4',
        city: '- Paris 8 - Paris (75)',
        department: '75',
        price: '955000',
        surface: '72.12',
        rooms: '4',
        description: 'Notaire - F4 Rue Berryer. Contact : Thomas AUCLAIR : 06.74.19.74.81\nClasse énergie : D - Classe climat : B',
      });
      expect(record.status).to.equal('active');
      expect(record.content).to.include({
        type: 'Appartement',
        transaction_type: 'vente',
        price: 955000,
        surface: 72.12,
        rooms: 4,
        price_per_m2: 13242,
        city: 'Paris',
        postal_code: '75008',
        department: '75',
        region: 'Île-de-France',
        latitude: 48.873,
        longitude: 2.311,
        dpe: 'D',
        ges: 'B',
      });
      expect(record.content.description).to.include(`AUCLAIR : ${REDACTION_MARKER}`);
    });

    it("a Bien'ici castle with a placeholder publication date and repeated photos", () => {
      const record = normalise({
        source: 'bienici',
        reference: '402',
        city: 'Montvalent',
        postal_code: 46600,
        type: 'castle',
        rooms: 26,
        bedrooms: 13,
        price: 797600,
        published_at: '1970-01-01T00:00:00.000Z',
        url: 'https://www.bienici.com/annonce/vente/montvalent/402',
        title: 'Château à vendre dans le lot avec dépendances et piscine.',
        images:
          'https://media.example.org/a.jpg?DATEMAJ=23/11/2022-09:45:40, https://media.example.org/b.jpg?DATEMAJ=23/11/2022-09:45:40, https://media.example.org/a.jpg?DATEMAJ=23/11/2022-09:45:40',
      });
      expect(record.content).to.include({ type: 'Maison', city: 'Montvalent', department: '46', region: 'Occitanie', images_count: 2, published_at: null });
    });

    it('a private rental without description', () => {
      const c = content({
        source: 'pap',
        title: '1 chambre appartement de 31m² à Paris',
        price: '690 €/mois',
        surface: '31',
        rooms: 1,
        city: '92110 Clichy, France',
        seller_type: 'particulier',
      });
      expect(c).to.include({
        transaction_type: 'location',
        price_label: '690 €/mois',
        city: 'Clichy',
        postal_code: '92110',
        department: '92',
        seller_name: null,
      });
    });
  });
});
