/**
 * Text similarity of two descriptions (or titles) for duplicate scoring.
 *
 * Sites republish a seller's text with other wording, reordered sentences, an intro of their own, or
 * cut after a few hundred characters. Word bigrams ("shingles") survive all of that inside each
 * sentence, and the overlap is measured against the SHORTER text (containment), so a truncated copy
 * still scores as the full text it was cut from. Shingles are hashed to 32-bit integers and kept as a
 * sorted array: one merge pass compares two texts, with no string allocation per comparison.
 */

/** Lower-case, accents removed: "Séjour" and "sejour" are one word on every site. */
const ACCENTS = /[\u0300-\u036f]/g;
const WORD = /[a-z0-9]+/g;

/** Sorted, distinct FNV-1a hashes of the word bigrams of `text` (single words when only one word). */
export function shingles(text: string | null): Uint32Array {
  if (!text) return EMPTY;
  const folded = text.normalize('NFD').replace(ACCENTS, '').toLowerCase();
  const words = folded.match(WORD);
  if (!words) return EMPTY;
  const hashes = new Uint32Array(Math.max(1, words.length - 1));
  if (words.length === 1) hashes[0] = hashWord(words[0], 0x811c9dc5);
  for (let i = 0; i + 1 < words.length; i++) hashes[i] = hashWord(words[i + 1], hashWord(words[i], 0x811c9dc5) ^ 0x20);
  hashes.sort();
  let distinct = 0;
  for (let i = 0; i < hashes.length; i++) if (i === 0 || hashes[i] !== hashes[i - 1]) hashes[distinct++] = hashes[i];
  return hashes.subarray(0, distinct);
}

const EMPTY = new Uint32Array(0);

function hashWord(word: string, seed: number): number {
  let hash = seed >>> 0;
  for (let i = 0; i < word.length; i++) {
    hash ^= word.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** |A ∩ B| / min(|A|, |B|) of two shingle sets; null when either text is empty (no evidence). */
export function containment(a: Uint32Array, b: Uint32Array): number | null {
  if (a.length === 0 || b.length === 0) return null;
  let i = 0;
  let j = 0;
  let common = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) { common++; i++; j++; } else if (a[i] < b[j]) i++; else j++;
  }
  return common / Math.min(a.length, b.length);
}
