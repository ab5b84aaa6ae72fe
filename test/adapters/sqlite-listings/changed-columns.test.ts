/**
 * A listing written again is updated in the columns whose value changed only: SQLite rewrites the
 * entries of every index holding a column named in SET, and the full-text index for a title named
 * there, whatever the value. Watched with temporary triggers on the store's own connection.
 */
import { expect } from 'chai';
import { makeListings } from '../../support/fixtures.js';
import { storeHolding } from '../../support/sqlite-store-files.js';

describe('SQLite store: a listing written again sets its changed columns only', () => {
  it('names a changed price, and neither the department nor the title, in its UPDATE; an unchanged listing writes nothing', async () => {
    const listings = makeListings({ count: 20, seed: 7 });
    const { store } = await storeHolding('changed', listings);
    const db = store.database;
    db.exec(`CREATE TEMP TABLE touched (what TEXT);
      CREATE TEMP TRIGGER on_price AFTER UPDATE OF price ON listings BEGIN INSERT INTO touched VALUES ('price'); END;
      CREATE TEMP TRIGGER on_department AFTER UPDATE OF department ON listings BEGIN INSERT INTO touched VALUES ('department'); END;
      CREATE TEMP TRIGGER on_title AFTER UPDATE OF title ON listing_texts BEGIN INSERT INTO touched VALUES ('title'); END;
      CREATE TEMP TRIGGER on_annonce AFTER UPDATE ON listing_annonces BEGIN INSERT INTO touched VALUES ('annonce'); END;`);
    const touched = () => {
      const what = db.prepare('SELECT what FROM touched ORDER BY rowid').pluck().all() as string[];
      db.exec('DELETE FROM touched');
      return what;
    };
    try {
      const listing = listings.find((l) => l.content.price !== null)!;
      await store.upsertMany([listing]);
      expect(touched(), 'the same listing again').to.deep.equal([]);

      const cheaper = { ...listing, content: { ...listing.content, price: listing.content.price! - 1000 } };
      await store.upsertMany([cheaper]);
      expect(touched()).to.deep.equal(['price', 'annonce']);
      expect((await store.get(listing.id))!.content.price).to.equal(cheaper.content.price);

      const retitled = { ...cheaper, content: { ...cheaper.content, title: 'Pigeonnier restauré' } };
      await store.upsertMany([retitled]);
      expect(touched()).to.deep.equal(['title', 'annonce']);
      expect((await store.get(listing.id))!.content.title).to.equal('Pigeonnier restauré');
    } finally {
      db.exec('DROP TABLE temp.touched');
      await store.close();
    }
  });
});
