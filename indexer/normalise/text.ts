/**
 * Text values of a raw record: placeholders for "no value", titles and descriptions cleaned of
 * HTML (entities decoded, line breaks kept in descriptions), contacts redacted.
 */
import { redactContacts } from '../redact.js';

/** Values collectors write for "no value". */
const EMPTY_WORDS = new Set([
  '',
  'n/a',
  'na',
  'n.a.',
  'nc',
  'n.c.',
  'null',
  'undefined',
  'none',
  '-',
  '--',
  '?',
  'non communiqué',
  'non communique',
  'inconnu',
]);
const MAX_EMPTY_WORD_LENGTH = 16;

export function textOf(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const text = typeof value === 'string' ? value.trim() : String(value);
  // Placeholders are short; lower-casing a whole description to look one up would cost more.
  return text.length <= MAX_EMPTY_WORD_LENGTH && EMPTY_WORDS.has(text.toLowerCase()) ? null : text;
}

export function isAbsent(value: unknown): boolean {
  return textOf(value) === null;
}

export function redactOrNull(text: string | null): string | null {
  return text === null ? null : redactContacts(text);
}

export function clip(value: unknown): string {
  const text = String(value);
  return text.length > 60 ? `${text.slice(0, 60)}...` : text;
}

/** A title: HTML entities and tags removed, whitespace collapsed to single spaces. */
export function cleanText(value: unknown): string | null {
  let text = textOf(value);
  if (text === null) return null;
  if (mayHoldHtml(text)) text = htmlToText(text);
  text = text.replace(WHITESPACE_RUN, ' ').trim();
  return text === '' ? null : text;
}

/** A description: HTML turned into plain text with its line breaks, then contacts redacted. */
export function cleanDescription(value: unknown): string | null {
  let text = textOf(value);
  if (text === null) return null;
  if (mayHoldHtml(text)) text = htmlToText(text);
  if (text.includes('\r')) text = text.replace(CARRIAGE_RETURN, '\n');
  text = redactContacts(text).trim();
  return text === '' ? null : text;
}

const HTML_HINT = /<[a-zA-Z/!]|&(?:#\d|#x[0-9a-fA-F]|[a-zA-Z]{2,8};)/;

/** Tags or entities; the plain `includes` first, because most texts have neither `<` nor `&`. */
function mayHoldHtml(text: string): boolean {
  return (text.includes('<') || text.includes('&')) && HTML_HINT.test(text);
}
const WHITESPACE_RUN = /\s+/g;
const CARRIAGE_RETURN = /\r\n?/g;
const SCRIPT_OR_STYLE = /<(script|style)\b[^<>]*>[\s\S]*?<\/\1\s?>/gi;
const HTML_COMMENT = /<!--[\s\S]*?-->/g;
/**
 * Tags that end a line of text: `<br>`, and block elements opening or closing (`<p>`, `</div>`).
 * `[^<>]*` rather than `[^>]*` in tags: an unclosed `<a` must not make every later `<` rescan the text.
 */
const LINE_BREAK_TAG = /<\s?br\s?\/?\s?>|<\/?\s?(?:p|div|li|ul|ol|h[1-6]|tr|table|blockquote|section|article)\b[^<>]*>/gi;
const ANY_TAG = /<\/?[a-zA-Z][^<>]*>/g;
const ENTITY = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z][a-zA-Z0-9]{1,31}));/g;
// Runs of spaces are collapsed first, so that trimming around line breaks needs no `*`.
const SPACE_RUN = /[ \t\u00a0]{2,}/g;
const SPACES_AROUND_NEWLINE = /[ \t\u00a0]?\n[ \t\u00a0]?/g;
const BLANK_LINES = /\n{3,}/g;
const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  eacute: 'é',
  egrave: 'è',
  ecirc: 'ê',
  euml: 'ë',
  agrave: 'à',
  acirc: 'â',
  auml: 'ä',
  ccedil: 'ç',
  icirc: 'î',
  iuml: 'ï',
  ocirc: 'ô',
  ouml: 'ö',
  ugrave: 'ù',
  ucirc: 'û',
  uuml: 'ü',
  oelig: 'œ',
  aelig: 'æ',
  Eacute: 'É',
  Egrave: 'È',
  Ecirc: 'Ê',
  Agrave: 'À',
  Acirc: 'Â',
  Ccedil: 'Ç',
  Ocirc: 'Ô',
  Icirc: 'Î',
  Ucirc: 'Û',
  OElig: 'Œ',
  laquo: '«',
  raquo: '»',
  euro: '€',
  sup2: '²',
  sup3: '³',
  deg: '°',
  hellip: '…',
  rsquo: '’',
  lsquo: '‘',
  ldquo: '“',
  rdquo: '”',
  ndash: '–',
  mdash: '—',
  middot: '·',
  bull: '•',
  times: '×',
  copy: '©',
  reg: '®',
  trade: '™',
  ordm: 'º',
  ordf: 'ª',
  frac12: '½',
  frac14: '¼',
  frac34: '¾',
};

function htmlToText(html: string): string {
  return html
    .replace(SCRIPT_OR_STYLE, ' ')
    .replace(HTML_COMMENT, ' ')
    .replace(LINE_BREAK_TAG, '\n')
    .replace(ANY_TAG, '')
    .replace(ENTITY, decodeEntity)
    .replace(CARRIAGE_RETURN, '\n')
    .replace(SPACE_RUN, ' ')
    .replace(SPACES_AROUND_NEWLINE, '\n')
    .replace(BLANK_LINES, '\n\n')
    .trim();
}

function decodeEntity(entity: string, decimal?: string, hex?: string, name?: string): string {
  if (name !== undefined) return NAMED_ENTITIES[name] ?? entity;
  const codePoint = decimal !== undefined ? Number(decimal) : parseInt(hex!, 16);
  if (codePoint === 160) return ' ';
  if (codePoint <= 0 || codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) return entity;
  return String.fromCodePoint(codePoint);
}
