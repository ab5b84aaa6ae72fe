/**
 * The listing document of the SQLite store (rows/doc-text.ts): it keeps only what the Annonce text does
 * not hold as it is, and gives back the whole listing with it, through the store as well.
 */
import { expect } from 'chai';
import Database from 'better-sqlite3';
import { decodeDoc, encodeDoc } from '../../../src/adapters/sqlite-listings/rows/doc-text.js';
import { fromRow, toRow } from '../../../src/adapters/sqlite-listings/rows/listing-row.js';
import { SqliteListingStore } from '../../../src/adapters/sqlite-listings/listing-store.js';
import { presentAnnonce } from '../../../src/core/model/present.js';
import type { StoredListing } from '../../../src/core/model/stored.js';
import { makeListings } from '../../support/fixtures.js';
import { newStoreFile } from '../../support/sqlite-store-files.js';
import { toWholeContentDocs } from '../../support/schema4-layout.js';

/** A listing as JSON gives it back (undefined values dropped): what any store keeps of it. */
const asStored = (listing: StoredListing) => JSON.parse(JSON.stringify(listing)) as StoredListing;

describe('SQLite store: the listing document beside its Annonce text', () => {
  const listings = makeListings({ count: 150, seed: 11 });

  it('gives back every listing from the document and the Annonce text', () => {
    for (const listing of listings) {
      const row = toRow(listing);
      expect(fromRow(row), listing.id).to.deep.equal(asStored(listing));
    }
  });

  it('holds no content value the Annonce shows as it is', () => {
    const listing = listings.find((l) => l.content.title !== null && l.content.description !== null)!;
    const doc = JSON.parse(toRow(listing).doc) as { own: Record<string, unknown> };
    expect(doc.own).to.deep.equal({});
    expect(toRow(listing).doc.length).to.be.below(toRow(listing).public_json!.length / 3);
  });

  it('keeps what the Annonce hides or lacks: a private seller, a missing field, a field it does not name', () => {
    const base = listings[0];
    const content = { ...base.content, seller_type: 'Particulier', seller_name: 'Jeanne Martin', extra_note: 'kept' } as Record<string, unknown>;
    delete content.kitchen;
    const listing = { ...base, content: content as unknown as StoredListing['content'] };
    const annonce = presentAnnonce(listing);
    expect(annonce.seller_name).to.equal(null);
    expect(annonce.kitchen).to.equal(null);
    const doc = encodeDoc(listing, annonce);
    expect(JSON.parse(doc)).to.include.keys('own', 'absent');
    const back = decodeDoc(doc, JSON.stringify(annonce)).content as unknown as Record<string, unknown>;
    expect(back.seller_name).to.equal('Jeanne Martin');
    expect(back.extra_note).to.equal('kept');
    expect(back).to.not.have.property('kitchen');
    expect(back).to.deep.equal(JSON.parse(JSON.stringify(content)));
  });

  it("leaves out a group's members when the Annonce's sources list them, and keeps them otherwise", () => {
    const base = listings[1];
    const members = [
      { source: base.content.source, reference: base.content.reference, url: 'https://a.example/1', price: 100_000 },
      { source: 'other', reference: 'r2', url: 'https://b.example/2', price: 99_000 },
    ];
    const grouped = { ...base, dedup_key: 'd_test', group_members: members };
    const doc = JSON.parse(toRow(grouped).doc) as Record<string, unknown>;
    expect(doc).to.not.have.property('group_members');
    expect(fromRow(toRow(grouped)).group_members).to.deep.equal(members);
    // A lone member is not shown as sources: it stays in the document.
    const alone = { ...base, group_members: members.slice(0, 1) };
    expect(JSON.parse(toRow(alone).doc).group_members).to.deep.equal(members.slice(0, 1));
    expect(fromRow(toRow(alone)).group_members).to.deep.equal(members.slice(0, 1));
  });

  it('reads a document of the older form (the whole content) as it is', () => {
    const listing = listings[3];
    const whole = JSON.stringify({ ...decodeDoc(toRow(listing).doc, toRow(listing).public_json), content: listing.content });
    expect(decodeDoc(whole, null).content).to.deep.equal(asStored(listing).content);
  });

  it('through the store: getMany gives back what was written, and the documents are small', async () => {
    const file = newStoreFile('doc');
    const store = new SqliteListingStore(file);
    await store.upsertMany(listings);
    const back = await store.getMany(listings.map((l) => l.id));
    for (const listing of listings) expect(back.get(listing.id), listing.id).to.deep.equal(asStored(listing));
    await store.close();
    const db = new Database(file, { readonly: true });
    const sizes = db
      .prepare('SELECT avg(length(t.doc)) AS doc, avg(length(a.public_json)) AS annonce FROM listing_texts t JOIN listing_annonces a USING (rowid)')
      .get() as {
      doc: number;
      annonce: number;
    };
    db.close();
    expect(sizes.doc).to.be.below(sizes.annonce / 3);
  });

  it('reindex writes the documents of the older form in the current one, and the listings stay the same', async () => {
    const file = newStoreFile('doc-old');
    let store = new SqliteListingStore(file);
    await store.upsertMany(listings);
    await store.close();
    const db = new Database(file);
    toWholeContentDocs(db);
    const docSizes = () =>
      db.prepare("SELECT count(*) AS whole, sum(length(doc)) AS bytes FROM listing_texts WHERE json_type(doc, '$.content') IS NOT NULL").get() as {
        whole: number;
        bytes: number;
      };
    const totalBytes = () => (db.prepare('SELECT sum(length(doc)) AS bytes FROM listing_texts').get() as { bytes: number }).bytes;
    expect(docSizes().whole).to.equal(listings.length);
    const before = totalBytes();
    store = new SqliteListingStore(file);
    const read = async () => store.getMany(listings.map((l) => l.id));
    const whole = await read();
    store.rebuildIndexes();
    expect(docSizes().whole).to.equal(0);
    expect(totalBytes()).to.be.below(before / 3);
    expect(await read()).to.deep.equal(whole);
    await store.close();
    db.close();
  });
});
