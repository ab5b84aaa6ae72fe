/**
 * Whether the words around a number fit the field it was given for. Collectors shift columns and
 * paste neighbouring text into a field: a bedroom count of "55,8 m²", a surface of "1er étage" or
 * "dès le 30/06/2027". Reading the first number of such a value gives a wrong number that looks
 * right (56 bedrooms, 1 m²); the normaliser stores null instead and counts the field.
 *
 * Only the words right before the first number and the word right after it are judged: real values
 * are short ("45,5 m²", "env. 45 m2 Carrez", "4 pièces", "T3"), and a longer text that starts with a
 * fitting value ("45 m² habitables + 10 m² de terrasse") keeps its first number.
 */

export type ValueKind = 'surface' | 'land' | 'count' | 'rooms' | 'price';

/** Characters of the first number: digits and the separators parseNumber accepts inside one. */
const FIRST_NUMBER = /\d(?:[\d.,]|[ \u00a0\u202f\u2009'](?=\d{3}(?!\d)))*/;
const MAX_JUDGED = 40;

/** Words that may come before a number, by kind (lower case; accents optional). */
const PREFIX: Record<ValueKind, RegExp> = {
  surface: /^(?:(?:surface|superficie|habitable|carrez|env(?:iron)?|approx|ca|de|d|totale?|:|~|≈|\.|\s)+)?$/i,
  land: /^(?:(?:surface|superficie|terrain|de|d|env(?:iron)?|totale?|:|~|≈|\.|\s)+)?$/i,
  count: /^(?:(?:nb|nombre|de|d|:|\.|\s)+)?$/i,
  rooms: /^(?:(?:nb|nombre|de|d|pi[eè]ces?|type|[tf]|:|\.|\s)+)?$/i,
  price: /^[\s\S]*$/,
};

/** What may follow the number, by kind: a unit of the field, punctuation, or nothing. */
const SUFFIX: Record<ValueKind, RegExp> = {
  surface: /^\s*(?:m\s?[2²]|m(?![a-zà-ÿ])|mq\b|m[eè]tres?\b|ca\b|\(|[,;)\-–+]|$)/i,
  land: /^\s*(?:m\s?[2²]|m(?![a-zà-ÿ])|mq\b|m[eè]tres?\b|ha\b|hectares?\b|a\b|ares?\b|ca\b|\(|[,;)\-–+]|$)/i,
  count: /^\s*(?:chambres?\b|ch\b|chbres?\b|salles?\b|sdb\b|sde\b|wc\b|toilettes?\b|pi[eè]ces?\b|p\b|pcs?\b|\(|[,;)\-–+]|$)/i,
  rooms: /^\s*(?:pi[eè]ces?\b|p\b|pcs?\b|bis\b|\(|[,;)\-–+]|$)/i,
  // A price is followed by anything but a surface, an ordinal or a count: "350 000 € FAI",
  // "1 200 €/mois CC", "350k€", but not "65 m²" or "3 pièces".
  price: /^(?!\s*(?:m\s?[2²]|m(?![a-zà-ÿ])|pi[eè]ces?\b|chambres?\b|er\b|[eè]re\b|e\b|[eè]me\b|[ée]tages?\b))/i,
};

/** A date or a time is several numbers joined by `/` or `:`: never a single value of these fields. */
const DATE_LIKE = /\d\s?[/:]\s?\d|\d{1,2}[./-]\d{1,2}[./-]\d{2,4}/;

/** True when the text's first number reads as a value of `kind`; numbers given as numbers always fit. */
export function unitFits(kind: ValueKind, value: unknown): boolean {
  if (typeof value !== 'string') return true;
  const match = FIRST_NUMBER.exec(value);
  if (!match) return true;
  const before = value.slice(Math.max(0, match.index - MAX_JUDGED), match.index).trim();
  const after = value.slice(match.index + match[0].length, match.index + match[0].length + MAX_JUDGED);
  if (kind !== 'price' && DATE_LIKE.test(value.slice(match.index, match.index + MAX_JUDGED))) return false;
  return PREFIX[kind].test(before) && SUFFIX[kind].test(after);
}

/** Land given in hectares or ares, as rural listings write it: the factor to square metres. */
export function landUnitFactor(value: unknown): number {
  if (typeof value !== 'string') return 1;
  const match = FIRST_NUMBER.exec(value);
  if (!match) return 1;
  const after = value.slice(match.index + match[0].length, match.index + match[0].length + 12);
  if (/^\s*(?:ha\b|hectares?\b)/i.test(after)) return 10_000;
  if (/^\s*(?:a\b|ares?\b)/i.test(after)) return 100;
  return 1;
}
