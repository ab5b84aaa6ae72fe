/** Bodies spliced from precomputed JSON texts read exactly like JSON.stringify of the same object. */
import { expect } from 'chai';
import { JsonTexts, serialiseBody } from '../../../src/api/http/json-body.js';

describe('serialiseBody', () => {
  it('writes fields in order, items from strings or UTF-8 bytes, like JSON.stringify', () => {
    const items = [{ x: 1, t: 'a "quoted" é' }, { y: null }];
    const body = { page: 1, items: new JsonTexts([JSON.stringify(items[0]), Buffer.from(JSON.stringify(items[1]))]), next_cursor: null, skipped: undefined, has_more: true };
    expect(serialiseBody(body).toString('utf8')).to.equal(JSON.stringify({ page: 1, items, next_cursor: null, has_more: true }));
  });

  it('handles an empty list, a list first, and two lists', () => {
    expect(serialiseBody({ items: new JsonTexts([]), count: 0 }).toString()).to.equal('{"items":[],"count":0}');
    expect(serialiseBody({ a: new JsonTexts(['1']), b: new JsonTexts(['2', '3']) }).toString()).to.equal('{"a":[1],"b":[2,3]}');
    expect(serialiseBody({}).toString()).to.equal('{}');
  });
});
