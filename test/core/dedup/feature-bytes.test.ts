import { expect } from 'chai';
import { FEATURE_BYTES_VERSION, featureBytesOf, featuresOfBytes } from '../../../src/core/dedup/feature-bytes.js';
import { makeListings } from '../../support/fixtures.js';
import { comparableCandidate, expectedCandidate } from '../../support/candidates.js';

describe('feature bytes (the stored features in one field)', () => {
  const listings = makeListings({ count: 200, seed: 5 });

  it('give back every feature of the listing, shingles included, through base64 as Elasticsearch returns them', () => {
    let withText = 0;
    for (const listing of listings) {
      const expected = expectedCandidate(listing);
      const bytes = Buffer.from(featureBytesOf(listing).toString('base64'), 'base64');
      const features = featuresOfBytes(listing.id, bytes);
      expect(features, listing.id).to.not.equal(null);
      expect(comparableCandidate({ ...expected, features: features! })).to.deep.equal(expected);
      if (features!.text.length > 0) withText++;
    }
    expect(withText).to.be.greaterThan(100);
  });

  it('of another version, or cut short, are not read', () => {
    const bytes = featureBytesOf(listings[0]);
    const length = bytes.readUInt32LE(0);
    const head = JSON.parse(bytes.toString('utf8', 4, 4 + length)) as unknown[];
    const older = Buffer.from(bytes);
    older.write(JSON.stringify([FEATURE_BYTES_VERSION + 1, ...head.slice(1)]).padEnd(length), 4);
    expect(featuresOfBytes('x', older)).to.equal(null);
    expect(featuresOfBytes('x', bytes.subarray(0, bytes.length - 2))).to.equal(null);
    expect(featuresOfBytes('x', bytes.subarray(0, 3))).to.equal(null);
  });
});
