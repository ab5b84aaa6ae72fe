/**
 * Text similarity of two descriptions for duplicate scoring, and the text folding it rests on.
 *
 * Sites republish a seller's text with other wording, reordered sentences, an intro of their own, or
 * cut after a few hundred characters. Word bigrams ("shingles") survive all of that inside each
 * sentence, and the overlap is measured against the SHORTER text (containment), so a truncated copy
 * still scores as the full text it was cut from. Shingles are hashed to 32-bit integers and kept as a
 * sorted array: one merge pass compares two texts.
 *
 * Texts are read once per character through a folding table (lower case, accents removed, anything
 * else a word separator) rather than with Unicode normalisation and regular expressions: the indexer
 * shingles the candidates of every listing of every batch, and this is its hottest loop.
 */

/** Folded ASCII code of each character below U+0180 (0: not part of a word). */
const FOLD = buildFoldTable();

function buildFoldTable(): Uint8Array {
  const table = new Uint8Array(0x180);
  for (let code = 0; code < table.length; code++) {
    const base = String.fromCharCode(code).normalize('NFD').charAt(0).toLowerCase();
    const folded = base.charCodeAt(0);
    if ((folded >= 97 && folded <= 122) || (folded >= 48 && folded <= 57)) table[code] = folded;
  }
  // Ligatures and letters NFD leaves alone: keep them inside their word.
  for (const [char, as] of [
    ['œ', 'o'],
    ['Œ', 'o'],
    ['æ', 'a'],
    ['Æ', 'a'],
    ['ß', 's'],
    ['ø', 'o'],
    ['Ø', 'o'],
    ['đ', 'd'],
    ['ł', 'l'],
  ] as const) {
    table[char.charCodeAt(0)] = as.charCodeAt(0);
  }
  return table;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const EMPTY = new Uint32Array(0);

/** Sorted, distinct hashes of the word bigrams of `text` (the single word when there is only one). */
export function shingles(text: string | null): Uint32Array {
  if (!text) return EMPTY;
  const hashes = new Uint32Array((text.length >> 1) + 1);
  let count = 0;
  let word = FNV_OFFSET;
  let inWord = false;
  let previous = -1;
  const endWord = () => {
    if (previous >= 0) hashes[count++] = pair(previous, word);
    previous = word;
    word = FNV_OFFSET;
    inWord = false;
  };
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const folded = code < 0x180 ? FOLD[code] : 0;
    if (folded !== 0) {
      word = Math.imul(word ^ folded, FNV_PRIME) >>> 0;
      inWord = true;
    } else if (inWord) {
      endWord();
    }
  }
  if (inWord) endWord();
  if (count === 0) {
    if (previous < 0) return EMPTY;
    hashes[count++] = previous;
  }
  const sorted = hashes.subarray(0, count).sort();
  let distinct = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[distinct++] = sorted[i];
  return sorted.subarray(0, distinct);
}

function pair(first: number, second: number): number {
  return (Math.imul(first ^ (first >>> 15), 0x2c1b3c6d) ^ second) >>> 0;
}

/** |A ∩ B| / min(|A|, |B|) of two shingle sets; null when either text is empty (no evidence). */
export function containment(a: Uint32Array, b: Uint32Array): number | null {
  if (a.length === 0 || b.length === 0) return null;
  let i = 0;
  let j = 0;
  let common = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      common++;
      i++;
      j++;
    } else if (a[i] < b[j]) i++;
    else j++;
  }
  return common / Math.min(a.length, b.length);
}

/** Lower case, accents removed, words separated by one space: "AGENCE DU PARC" = "Agence du Parc". */
export function foldWords(text: string): string {
  let out = '';
  let pending = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const folded = code < 0x180 ? FOLD[code] : 0;
    if (folded === 0) {
      pending = out.length > 0;
      continue;
    }
    if (pending) {
      out += ' ';
      pending = false;
    }
    out += String.fromCharCode(folded);
  }
  return out;
}
