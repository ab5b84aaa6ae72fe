import { expect } from 'chai';
import fc from 'fast-check';
import { CursorCodec, CursorError } from '../../../src/core/query/cursor.js';

describe('cursors', () => {
  const codec = new CursorCodec('secret-a');

  it('round-trips any position of a printable-ASCII id (<= 161 chars) within 500 characters', () => {
    fc.assert(
      fc.property(
        fc.double({ noNaN: true, noDefaultInfinity: true }).map((v) => (Object.is(v, -0) ? 0 : v)),
        fc.stringMatching(/^[\x21-\x7E]{1,161}$/),
        fc.integer({ min: 1, max: 1000 }),
        (key, id, page) => {
          const cursor = codec.encode('search:recent', [key, id, page]);
          expect(cursor.length).to.be.at.most(500);
          expect(codec.decode('search:recent', cursor)).to.deep.equal([key, id, page]);
        },
      ),
    );
  });

  it('refuses a cursor of another kind, another secret, or tampered', () => {
    const cursor = codec.encode('search:recent', [1, 'a:b', 2]);
    expect(() => codec.decode('search:price_asc', cursor)).to.throw(CursorError);
    expect(() => new CursorCodec('secret-b').decode('search:recent', cursor)).to.throw(CursorError);
    const [payload, signature] = cursor.split('.');
    const tampered = Buffer.from(JSON.stringify({ k: 'search:recent', p: [0, 'a:b', 2] })).toString('base64url');
    expect(() => codec.decode('search:recent', `${tampered}.${signature}`)).to.throw(CursorError);
    expect(() => codec.decode('search:recent', payload)).to.throw(CursorError);
    expect(() => codec.decode('search:recent', '')).to.throw(CursorError);
  });
});
