/** Text folding shared by the indexer and the API: case- and accent-insensitive keys. */
export function foldText(value: string): string {
  return value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[’'`\-_/]+/g, ' ')
    .replace(/\bst\b/g, 'saint')
    .replace(/\bste\b/g, 'sainte')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Full-text tokens, as both engines index them: diacritics removed, lower case, split on anything
 * that is not a letter or a digit. This is what SQLite's FTS5 `unicode61 remove_diacritics 2` does,
 * and the Elasticsearch document carries these tokens already made (its `search_text` field), so
 * the two engines see the same words whatever analysis a cluster offers.
 */
export function textTokens(value: string): string[] {
  return value
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/**
 * Articles French elides before a vowel (l'appartement, d'une, qu'il). Each is indexed as a word of
 * its own by both engines, so a query asking for it would match nearly everything it appears in:
 * they are dropped from the query's words, unless nothing else is left.
 */
export const ELIDED_ARTICLES: ReadonlySet<string> = new Set(['l', 'm', 't', 'qu', 'n', 's', 'j', 'd', 'c', 'jusqu', 'quoiqu', 'lorsqu', 'puisqu']);

/** At most this many distinct words from one full-text query. */
export const MAX_QUERY_WORDS = 32;

/** The words of a full-text query (`q`): every one must be in the title or the description. */
export function queryWords(q: string): string[] {
  const words = [...new Set(textTokens(foldText(q)))];
  const meaningful = words.filter((word) => !ELIDED_ARTICLES.has(word));
  return (meaningful.length ? meaningful : words).slice(0, MAX_QUERY_WORDS);
}
