import { expect } from 'chai';
import { content } from './helpers.js';

describe('normaliseRecord: images, other fields, title', () => {
  describe('images and other fields', () => {
    it('splits a string of URLs on |, commas and whitespace, keeps http(s) only, deduplicated in order', () => {
      const c = content({
        images:
          'https://img.example.org/1.jpg|https://img.example.org/2.jpg, https://img.example.org/1.jpg\nhttp://img.example.org/3.jpg ftp://x/4.jpg not-a-url',
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
      const c = content({
        video_url: 'https://youtu.be/x',
        virtual_tour_url: 'javascript:alert(1)',
        dpe_chart_url: 'https://x/dpe.png',
        kitchen: 'équipée',
        real_estate_network: 'Orpi',
      });
      expect(c).to.include({
        video_url: 'https://youtu.be/x',
        virtual_tour_url: null,
        dpe_chart_url: 'https://x/dpe.png',
        kitchen: 'équipée',
        real_estate_network: 'Orpi',
      });
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
});
