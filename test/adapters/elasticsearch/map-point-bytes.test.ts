/** A map point's bytes (`map_bin`): the text and the exact coordinates back, nothing of another layout or version. */
import { expect } from 'chai';
import { MAP_POINT_BYTES_VERSION, mapPointBytesOf, mapPointOfBytes } from '../../../src/adapters/elasticsearch/map-point-bytes.js';

describe('Elasticsearch map point bytes', () => {
  const text = JSON.stringify({ source: 'seloger', title: 'Pièce à vivre, 3 pièces', latitude: 48.857, longitude: 2.352 });

  it('gives back the text and the coordinates as written, through base64', () => {
    // Coordinates that no float32 holds exactly: the cells are counted by the doubles, so they must stay doubles.
    const bytes = Buffer.from(mapPointBytesOf(7, 48.85712345678901, -0.1234567890123, text).toString('base64'), 'base64');
    const point = mapPointOfBytes(bytes, 7);
    expect(point).to.not.equal(null);
    expect(point!.latitude).to.equal(48.85712345678901);
    expect(point!.longitude).to.equal(-0.1234567890123);
    expect(point!.text.toString('utf8')).to.equal(text);
    expect(JSON.parse(point!.text.toString('utf8')).title).to.equal('Pièce à vivre, 3 pièces');
  });

  it('reads nothing of another presenter version, another layout, or bytes cut short', () => {
    const bytes = mapPointBytesOf(7, 45, 4, text);
    expect(mapPointOfBytes(bytes, 8)).to.equal(null);
    const otherLayout = Buffer.from(bytes);
    otherLayout.writeUInt8(MAP_POINT_BYTES_VERSION + 1, 0);
    expect(mapPointOfBytes(otherLayout, 7)).to.equal(null);
    expect(mapPointOfBytes(bytes.subarray(0, 19), 7)).to.equal(null);
    expect(mapPointOfBytes(Buffer.alloc(0), 7)).to.equal(null);
  });
});
