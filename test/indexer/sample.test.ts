import { expect } from 'chai';
import { RawRecord } from '../../indexer/raw-record.js';
import { DEFAULT_NOW, effectiveNow, generateSample, type SampleRecord, type SampleStats } from '../../indexer/sample/generate.js';
import { loadCommunes } from '../../src/core/refdata/communes.js';

const DAY_MS = 86_400_000;

/** What a line of the output file looks like: undefined fields dropped. */
const asJson = (record: Record<string, unknown>) => JSON.parse(JSON.stringify(record)) as Record<string, unknown>;
const take = (count: number, seed?: number) => [...generateSample({ count, seed })];

/** Digits of a raw price ("350 000 €", "350.000 EUR", "1 200 €/mois CC", 350000, "350000.0"): sample prices have no cents. */
const priceOf = (value: unknown) => (/^\d+\.0$/.test(String(value)) ? Number(value) : Number(String(value).replace(/[^\d]/g, '')));
const hasPhotos = (images: unknown) => (Array.isArray(images) ? images.length > 0 : typeof images === 'string' && images.length > 0);
const isRental = (transaction: unknown) => /loc|louer/i.test(String(transaction));
const filled = (value: unknown) => value !== undefined && value !== null && value !== '';
const share = (part: number, whole: number) => part / whole;

describe('indexer/sample: the sample catalogue generator', function () {
  this.timeout(60_000);
  const COUNT = 6_000;
  let sample: SampleRecord[];
  /** The records written as their sites write them: what the proportions and site quirks describe. */
  let classic: SampleRecord[];
  let stats: SampleStats;

  before(() => {
    stats = { properties: 0, multiSiteProperties: 0, neighbourFlats: 0 };
    sample = [...generateSample({ count: COUNT, stats })];
    classic = sample.filter((item) => item.shape === 'classic');
  });

  describe('determinism', () => {
    it('yields exactly the requested count', () => {
      expect(sample).to.have.length(COUNT);
      expect(take(0)).to.deep.equal([]);
      expect(take(37)).to.have.length(37);
    });

    it('gives the same records for the same seed, and others for another seed', () => {
      const again = take(1_500);
      expect(again.map((r) => JSON.stringify(r))).to.deep.equal(sample.slice(0, 1_500).map((r) => JSON.stringify(r)));
      const other = take(1_500, 7);
      expect(other.map((r) => JSON.stringify(r.record))).to.not.deep.equal(again.map((r) => JSON.stringify(r.record)));
    });

    it('makes a smaller catalogue a prefix of a larger one', () => {
      expect(take(250).map((r) => JSON.stringify(r))).to.deep.equal(sample.slice(0, 250).map((r) => JSON.stringify(r)));
    });

    it('uses the fixed default reference date, never one in the future of the real clock', () => {
      expect(effectiveNow()).to.equal(DEFAULT_NOW.getTime());
      const realNow = Date.parse('2026-11-22T15:30:00Z');
      expect(effectiveNow(new Date('2027-01-01T00:00:00Z'), realNow)).to.equal(Date.parse('2026-11-22T00:00:00Z'));
      expect(effectiveNow(new Date('2026-01-01T00:00:00Z'), realNow)).to.equal(Date.parse('2026-01-01T00:00:00Z'));
    });
  });

  describe('records', () => {
    it('all parse with the indexer RawRecord schema, in memory and as JSON lines', () => {
      for (const { record } of sample) {
        const parsed = RawRecord.safeParse(asJson(record));
        expect(parsed.success, JSON.stringify(parsed.error?.issues)).to.equal(true);
        expect(RawRecord.safeParse(record).success).to.equal(true);
      }
    });

    it('have unique (source, reference) pairs and a URL on the site', () => {
      const keys = new Set(sample.map(({ record }) => `${record.source}:${record.reference}`));
      expect(keys.size).to.equal(sample.length);
      for (const { record } of sample) expect(String(record.url)).to.match(/^https:\/\/[a-z.-]+\.[a-z]+\//);
    });

    it('are spread over about twelve sites, with few internal listings', () => {
      const bySource = new Map<string, number>();
      for (const { record } of sample) bySource.set(String(record.source), (bySource.get(String(record.source)) ?? 0) + 1);
      expect(bySource.size).to.be.within(12, 13);
      expect(share(bySource.get('interne') ?? 0, COUNT)).to.be.within(0.002, 0.02);
      expect(share(bySource.get('leboncoin') ?? 0, COUNT)).to.be.within(0.15, 0.35);
      for (const { record } of sample) expect(record.is_internal === true).to.equal(record.source === 'interne');
    });

    it("write prices, surfaces, types, DPE and dates in each site's own way", () => {
      const prices = sample.map(({ record }) => record.price);
      expect(prices.some((p) => typeof p === 'number')).to.equal(true);
      expect(prices.some((p) => /^\d{1,3}( \d{3})+ €$/.test(String(p)))).to.equal(true);
      expect(prices.some((p) => /^\d{1,3}(\.\d{3})+ EUR$/.test(String(p)))).to.equal(true);
      expect(prices.some((p) => /€\/mois CC$/.test(String(p)))).to.equal(true);
      const surfaces = sample.map(({ record }) => record.surface);
      expect(surfaces.some((s) => /^\d+,\d+ m²$/.test(String(s)))).to.equal(true);
      expect(surfaces.some((s) => typeof s === 'number' && !Number.isInteger(s))).to.equal(true);
      const types = new Set(sample.map(({ record }) => String(record.type)));
      for (const type of ['appt', 'studio', 'Appartement', 'villa', 'Maison/villa', 'maison de ville', 'Parking', 'local commercial', 'Bureaux', 'immeuble']) {
        expect(types, type).to.include(type);
      }
      expect([...types].some((t) => /^T\d$/.test(t))).to.equal(true);
      expect([...types].some((t) => /^F\d$/.test(t))).to.equal(true);
      const dpes = classic.map(({ record }) => String(record.dpe));
      expect(dpes.some((d) => /^[A-G]$/.test(d))).to.equal(true);
      expect(dpes.some((d) => /^Classe énergie : [A-G] \(\d+ kWh\/m²\.an\)$/.test(d))).to.equal(true);
      const published = classic.map(({ record }) => String(record.published_at));
      expect(published.some((d) => /^\d{4}-\d{2}-\d{2}T/.test(d))).to.equal(true);
      expect(published.some((d) => /^\d{2}\/\d{2}\/\d{4}$/.test(d))).to.equal(true);
    });

    it('place listings in real communes, weighted by population, with their real postal codes', () => {
      const communes = loadCommunes();
      let withPostalCode = 0;
      let bigCities = 0;
      for (const { record } of classic) {
        if (filled(record.postal_code)) {
          withPostalCode++;
          const postalCode = String(record.postal_code).padStart(5, '0');
          expect(communes.byPostalCode(postalCode), postalCode).to.not.be.empty;
        }
        if (/^(paris|lyon|marseille)\b/i.test(String(record.city))) bigCities++;
      }
      expect(share(withPostalCode, classic.length)).to.be.within(0.9, 0.99);
      expect(share(bigCities, classic.length)).to.be.within(0.025, 0.09);
      const cities = classic.map(({ record }) => String(record.city));
      expect(cities.some((c) => /^PARIS \d{2}$|^Paris \d+(e|er|ème)\b/.test(c))).to.equal(true);
      expect(cities.some((c) => /^[A-Z' -]+$/.test(c) && /\bST\b/.test(c))).to.equal(true);
    });

    it('collect over the 120 days before the reference date, after publication', () => {
      const now = DEFAULT_NOW.getTime();
      for (const { record } of classic) {
        const collected = Date.parse(String(record.collected_at));
        expect(collected).to.be.within(now - 120 * DAY_MS, now);
        const published = String(record.published_at);
        if (/T.*(Z|[+-]\d{2}:\d{2})$/.test(published)) expect(Date.parse(published)).to.be.at.most(collected);
      }
    });

    it('use photo URLs of the site, 1 to 20 per listing', () => {
      for (const { record } of classic) {
        if (!hasPhotos(record.images)) continue;
        const urls = Array.isArray(record.images) ? record.images : String(record.images).split(', ');
        expect(urls.length).to.be.within(1, 20);
        for (const url of urls) expect(url).to.match(new RegExp(`^https://img\\.${record.source}\\.example/[0-9a-f]{16}\\.jpg$`));
      }
    });
  });

  describe('ground truth', () => {
    it('never lists a property twice on the same site (but for a relisting, after its listing was withdrawn)', () => {
      const sitesOf = new Map<string, string[]>();
      for (const { record, propertyId, relistedFrom } of sample) {
        if (relistedFrom === undefined) sitesOf.set(propertyId, [...(sitesOf.get(propertyId) ?? []), String(record.source)]);
      }
      for (const [property, sites] of sitesOf) expect(new Set(sites).size, property).to.equal(sites.length);
      expect(Math.max(...[...sitesOf.values()].map((s) => s.length))).to.equal(4);
    });

    it('lists about half of the properties on 2 to 4 sites (the real-shaped pairs on 2), with prices within 8 % of each other', () => {
      const prices = new Map<string, number[]>();
      for (const { record, propertyId } of sample) prices.set(propertyId, [...(prices.get(propertyId) ?? []), priceOf(record.price)]);
      const multi = [...prices.values()].filter((p) => p.length > 1);
      expect(stats.properties).to.equal(prices.size);
      expect(stats.multiSiteProperties).to.equal(multi.length);
      expect(share(multi.length, prices.size)).to.be.within(0.45, 0.58);
      // A relisting is often cheaper than the listing it follows: the copies of one time are within 8 %.
      const relisted = new Set(sample.filter((item) => item.relistedFrom !== undefined).map((item) => item.propertyId));
      for (const [property, copies] of prices)
        if (copies.length > 1 && !relisted.has(property)) expect(Math.max(...copies) / Math.min(...copies)).to.be.at.most(1.085);
    });

    it('relists about 2 % of the properties: the listing withdrawn, a new reference 1 to 75 days later, often cheaper, after it in the file', () => {
      const relistings = sample.filter((item) => item.relistedFrom !== undefined);
      const position = new Map(sample.map((item, i) => [`${item.record.source}:${item.record.reference}`, i]));
      expect(share(relistings.length, stats.properties)).to.be.within(0.01, 0.04);
      let sameSite = 0;
      let cheaper = 0;
      for (const item of relistings) {
        const i = position.get(item.relistedFrom!)!;
        const withdrawn = sample[i];
        expect(i, item.relistedFrom).to.be.below(position.get(`${item.record.source}:${item.record.reference}`)!);
        expect(withdrawn.propertyId).to.equal(item.propertyId);
        expect(withdrawn.record.status).to.equal('retirée');
        const gap = Date.parse(String(item.record.collected_at)) - Date.parse(String(withdrawn.record.collected_at));
        expect(gap).to.be.within(0, 75 * DAY_MS);
        if (item.record.source === withdrawn.record.source) sameSite++;
        if (priceOf(item.record.price) < priceOf(withdrawn.record.price)) cheaper++;
      }
      expect(share(sameSite, relistings.length)).to.be.within(0.4, 0.8);
      expect(share(cheaper, relistings.length)).to.be.within(0.5, 0.9);
    });

    it('writes over 30 % of the duplicate pairs in the real shapes: sparse pairs and same-agency twins', () => {
      const copies = new Map<string, SampleRecord[]>();
      for (const item of sample) copies.set(item.propertyId, [...(copies.get(item.propertyId) ?? []), item]);
      const pairsByShape: Record<string, number> = {};
      for (const list of copies.values()) pairsByShape[list[0].shape] = (pairsByShape[list[0].shape] ?? 0) + (list.length * (list.length - 1)) / 2;
      const all = Object.values(pairsByShape).reduce((a, b) => a + b, 0);
      expect(share(pairsByShape.sparse + pairsByShape.twin, all)).to.be.above(0.3);
      for (const list of copies.values()) {
        // The last block of the sample may be cut between the two copies of a pair.
        if (list[0].shape === 'classic' || list.length < 2) continue;
        const records = list.map((item) => asJson(item.record));
        const seloger = records.find((r) => /^\d{5}$/.test(String(r.city)))!;
        const leboncoin = records.find((r) => r !== seloger)!;
        // SeLoger-like: no title, type, description, photo or position; the postal code in the city
        // field; the type in the URL path. Leboncoin-like: the city name, no postal code or description.
        expect(seloger).to.not.have.any.keys('title', 'type', 'description', 'latitude', 'postal_code');
        expect(String(seloger.city)).to.match(/^\d{5}$/);
        expect(String(seloger.url)).to.match(/\/annonces\/(?:achat|locations)\/[a-z-]+\/[a-z0-9-]+\/[a-z-]+\/[^/]+\.htm$/);
        expect(leboncoin).to.not.have.any.keys('postal_code', 'description');
        expect(String(leboncoin.city)).to.not.match(/\d{5}/);
        expect(Number.isInteger(leboncoin.surface)).to.equal(true);
        expect(priceOf(seloger.price)).to.equal(priceOf(leboncoin.price));
      }
      // Twins: two properties of one agency at one price, surfaces at least 1.5 m² apart.
      const twins = [...copies.keys()].filter((id) => id.endsWith('-t'));
      expect(twins.length).to.be.above(10);
      for (const twin of twins) {
        const original = copies.get(twin.slice(0, -2));
        if (!original) continue;
        const surfaceOf = (list: SampleRecord[]) => Number(asJson(list[0].record).surface);
        expect(priceOf(copies.get(twin)![0].record.price)).to.equal(priceOf(original[0].record.price));
        expect(Math.abs(surfaceOf(copies.get(twin)!) - surfaceOf(original))).to.be.at.least(1);
      }
    });

    it('adds neighbour flats: same place, coordinates and surface, another property, prices > 12 % apart', () => {
      expect(share(stats.neighbourFlats, stats.properties)).to.be.within(0.02, 0.045);
      const byBuilding = new Map<string, SampleRecord[]>();
      for (const item of classic) {
        const { record } = item;
        if (!filled(record.latitude) || !filled(record.surface) || !filled(record.postal_code)) continue;
        const key = `${record.postal_code}|${record.latitude}|${record.longitude}|${record.surface}`;
        byBuilding.set(key, [...(byBuilding.get(key) ?? []), item]);
      }
      let pairs = 0;
      for (const group of byBuilding.values()) {
        for (const a of group) {
          for (const b of group) {
            if (a.propertyId >= b.propertyId) continue;
            pairs++;
            const [low, high] = [priceOf(a.record.price), priceOf(b.record.price)].sort((x, y) => x - y);
            expect(high / low, `${a.propertyId} / ${b.propertyId}`).to.be.above(1.12);
          }
        }
      }
      expect(pairs).to.be.above(8);
    });
  });

  describe('proportions over a few thousand records', () => {
    const count = (test: (record: Record<string, unknown>) => boolean) => classic.filter(({ record }) => test(record)).length;

    it('about 8 % without photos and 25 % rentals', () => {
      expect(
        share(
          count((r) => !hasPhotos(r.images)),
          classic.length,
        ),
      ).to.be.within(0.05, 0.11);
      expect(
        share(
          count((r) => isRental(r.transaction)),
          classic.length,
        ),
      ).to.be.within(0.21, 0.29);
    });

    it('"lumineux" in about a quarter of descriptions, rare words rare', () => {
      const descriptions = classic.map(({ record }) => record.description).filter((d): d is string => typeof d === 'string' && d !== '');
      expect(share(descriptions.length, classic.length)).to.be.within(0.88, 0.99);
      expect(share(descriptions.filter((d) => /\blumineux\b/.test(d)).length, descriptions.length)).to.be.within(0.22, 0.28);
      for (const rare of ['pigeonnier', 'orangerie', 'tomettes']) {
        expect(share(descriptions.filter((d) => d.includes(rare)).length, descriptions.length), rare).to.be.below(0.005);
      }
    });

    it('about 10 % of descriptions with a phone number or an e-mail, in French forms', () => {
      const descriptions = classic.map(({ record }) => String(record.description ?? ''));
      const phone = /(?:\+33|0033)\s?(?:\(0\))?\s?[1-9](?:[\s.-]?\d{2}){4}|\b0[1-9](?:[\s.-]?\d{2}){4}\b/;
      const email = /@|\sarobase\s|\[at\]|\(at\)/;
      const withContact = descriptions.filter((d) => phone.test(d) || email.test(d));
      expect(share(withContact.length, classic.length)).to.be.within(0.06, 0.14);
      expect(descriptions.some((d) => /\+33 \d( \d{2}){4}/.test(d))).to.equal(true);
      expect(descriptions.some((d) => /\b0\d(\.\d{2}){4}\b/.test(d))).to.equal(true);
      expect(descriptions.some((d) => / arobase |\[at\]/.test(d))).to.equal(true);
    });

    it('about 20 % private sellers, some contact fields, professionals with agencies and networks', () => {
      const privates = classic.filter(({ record }) => /particulier/i.test(String(record.seller_type)));
      expect(share(privates.length, classic.length)).to.be.within(0.15, 0.26);
      expect(count((r) => filled(r.seller_phone) || filled(r.seller_email))).to.be.above(0);
      const networks = new Set(sample.map(({ record }) => record.real_estate_network).filter(filled));
      for (const network of ['Century 21', 'Orpi', 'Laforêt', 'Guy Hoquet', 'IAD']) expect(networks, network).to.include(network);
      for (const { record } of privates) expect(record.real_estate_network).to.equal(undefined);
    });

    it('year built on about 35 %, DPE on about 80 %, GES on about 70 %, about 3 % no longer active', () => {
      expect(
        share(
          count((r) => filled(r.year_built)),
          classic.length,
        ),
      ).to.be.within(0.29, 0.41);
      expect(
        share(
          count((r) => filled(r.dpe)),
          classic.length,
        ),
      ).to.be.within(0.74, 0.86);
      expect(
        share(
          count((r) => filled(r.ges)),
          classic.length,
        ),
      ).to.be.within(0.62, 0.76);
      const inactive = classic.filter(({ record }) => filled(record.status) && record.status !== 'active');
      expect(share(inactive.length, classic.length)).to.be.within(0.015, 0.05);
      for (const { record } of inactive) expect(['vendue', 'sous compromis', 'archivée', 'retirée']).to.include(record.status);
    });
  });
});
