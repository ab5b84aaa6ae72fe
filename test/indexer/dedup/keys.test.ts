/** Stable dedup_keys: kept when a group gains or loses members, the older one on a merge, one part on a split. */
import { expect } from 'chai';
import { assignKeys, mintKey, type KeyHolder } from '../../../indexer/dedup/keys.js';

const h = (id: string, previousKey: string | null, catalogueEnteredAt = 0, changeSeq = 1): KeyHolder => ({ id, previousKey, catalogueEnteredAt, changeSeq });

describe('dedup keys', () => {
  it('gives a listing alone no key, even if it had one', () => {
    expect(assignKeys([[h('a', 'K')], [h('b', null)]], new Set())).to.deep.equal([null, null]);
  });

  it('mints a new key from the oldest member (id and change_seq): d_ + hash, deterministic', () => {
    const keys = assignKeys([[h('b', null, 5, 40), h('a', null, 9, 41)]], new Set());
    expect(keys).to.deep.equal([mintKey('b#40')]);
    expect(keys[0]).to.match(/^d_[A-Za-z0-9_-]{16}$/);
    expect(assignKeys([[h('a', null, 9, 41), h('b', null, 5, 40)]], new Set())).to.deep.equal(keys);
    // The same member founding another group later (its change_seq moved on) gets another key.
    expect(assignKeys([[h('b', null, 5, 77), h('c', null, 9)]], new Set())[0]).to.not.equal(keys[0]);
  });

  it('keeps the key when the group gains a member', () => {
    expect(assignKeys([[h('a', 'K'), h('b', 'K'), h('c', null)]], new Set())).to.deep.equal(['K']);
  });

  it('keeps the key when the group loses a member', () => {
    expect(assignKeys([[h('a', 'K'), h('b', 'K')], [h('c', 'K')]], new Set())).to.deep.equal(['K', null]);
  });

  it('keeps the older key when two groups merge (the key whose oldest holder entered first)', () => {
    const merged = [h('a', 'NEW', 50), h('b', 'NEW', 60), h('c', 'OLD', 10), h('d', 'OLD', 70)];
    expect(assignKeys([merged], new Set())).to.deep.equal(['OLD']);
  });

  it('gives the key of a split group to the part holding most of its members, a new key to the other', () => {
    const keys = assignKeys(
      [
        [h('a', 'K'), h('b', 'K')],
        [h('c', 'K'), h('d', 'K'), h('e', 'K')],
      ],
      new Set(),
    );
    expect(keys[1]).to.equal('K');
    expect(keys[0]).to.equal(mintKey('a#1'));
  });

  it('on an even split, gives the key to the part holding its oldest member', () => {
    const keys = assignKeys(
      [
        [h('a', 'K', 20), h('b', 'K', 30)],
        [h('c', 'K', 10), h('d', 'K', 40)],
      ],
      new Set(),
    );
    expect(keys).to.deep.equal([mintKey('a#1'), 'K']);
  });

  it('never mints a key another listing of the block still holds', () => {
    const taken = mintKey('a#1');
    const keys = assignKeys([[h('a', null), h('b', null)]], new Set([taken]));
    expect(keys[0]).to.not.equal(taken);
    expect(keys[0]).to.equal(mintKey('a#1', new Set([taken])));
  });

  it('never gives one key to two groups', () => {
    const keys = assignKeys(
      [
        [h('a', 'K'), h('b', null)],
        [h('c', 'K'), h('d', null)],
        [h('e', 'K'), h('f', 'J')],
      ],
      new Set(),
    );
    const given = keys.filter((k) => k !== null);
    expect(new Set(given).size).to.equal(given.length);
    expect(given).to.include('K').and.to.include('J');
  });
});
