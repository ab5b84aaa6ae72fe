/**
 * The SQLite store's kept map answers (map/answers.ts): a repeated query is answered without reading,
 * any change of the store drops them, and they stay within their count and bytes.
 */
import { expect } from 'chai';
import { MapAnswers } from '../../../src/adapters/sqlite-listings/map/answers.js';
import type { MapResult } from '../../../src/core/ports/listing-reader.js';
import type { MapQuery } from '../../../src/core/query/query.js';

const query = (south: number): MapQuery => ({
  filter: {},
  scope: { enteredFrom: 0, eligibleSites: null },
  grouped: true,
  bbox: { south, west: 2, north: south + 1, east: 3 },
  limit: 2000,
});
const result = (total: number, bytes = 10): MapResult => ({ total, count: 1, texts: [Buffer.alloc(bytes)] });

describe('SQLite store: kept map answers (map/answers.ts)', () => {
  it('answers a repeated query without reading, and reads an other query', () => {
    const answers = new MapAnswers(() => 'same');
    let reads = 0;
    const read = () => result(++reads);
    expect(answers.answer(query(48), read).total).to.equal(1);
    expect(answers.answer(query(48), read).total).to.equal(1);
    expect(answers.answer(query(47), read).total).to.equal(2);
    // The same query with another access date or limit is another answer.
    expect(answers.answer({ ...query(48), scope: { enteredFrom: 5, eligibleSites: null } }, read).total).to.equal(3);
    expect(answers.answer({ ...query(48), limit: 10 }, read).total).to.equal(4);
    expect(reads).to.equal(4);
  });

  it('drops every answer when the store changes', () => {
    let stamp = 'a';
    const answers = new MapAnswers(() => stamp);
    let reads = 0;
    const read = () => result(++reads);
    answers.answer(query(48), read);
    stamp = 'b';
    expect(answers.answer(query(48), read).total).to.equal(2);
    expect(answers.answer(query(48), read).total).to.equal(2);
  });

  it('keeps at most its count and bytes, dropping the least recently used first', () => {
    const answers = new MapAnswers(() => 'same', { entries: 2, bytes: 100 });
    let reads = 0;
    const read =
      (bytes = 10) =>
      () =>
        result(++reads, bytes);
    answers.answer(query(1), read());
    answers.answer(query(2), read());
    answers.answer(query(1), read()); // used again: query(2) is now the oldest
    answers.answer(query(3), read()); // over 2 entries: query(2) goes
    expect(reads).to.equal(3);
    answers.answer(query(1), read());
    answers.answer(query(3), read());
    expect(reads).to.equal(3);
    answers.answer(query(2), read());
    expect(reads).to.equal(4);
    // An answer bigger than all the bytes is not kept; one that fills them pushes the others out.
    answers.answer(query(4), read(101));
    answers.answer(query(4), read(101));
    expect(reads).to.equal(6);
    answers.answer(query(5), read(95));
    answers.answer(query(2), read());
    expect(reads).to.equal(8);
  });
});
