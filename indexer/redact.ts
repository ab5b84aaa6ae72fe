/**
 * Redaction of contact data in free text (docs/indexer.md): every
 * telephone number and e-mail address of a title or description becomes REDACTION_MARKER before
 * the listing is stored. The seller stays reachable through `external_url`.
 *
 * The patterns are tuned on real collector output (notaires, Bien'ici, agencies): numbers written
 * `06 12 34 56 78`, `06.12.34.56.78`, `06/24/40/21/14`, `06 70 93 9146`, `+33 (0)6 ...`, `0033 6 ...`,
 * e-mails written plainly or as `nom (arobase) notaires .fr`, `contact(at)agence(dot)fr`. They must
 * leave alone what listings are full of: prices (`350 000 €`), surfaces, postal codes, years,
 * dates, references (`Réf : 044/2025/112`), DPE values.
 */

export const REDACTION_MARKER = '[coordonnées masquées]';

/**
 * Between two digits of a phone number people put nothing, up to three spaces (also no-break
 * ones), a dot, a dash or a slash, sometimes with spaces around it (`06 - 12 - 34`), and sometimes
 * that mark doubled by a slip (`04.94..62`, `06 -- 12`, `06 ./ 12`). Never a line break: two
 * numbers on two lines are two numbers. The run stays short (two marks at most), so it cannot join
 * the numbers of a sentence into a phone.
 */
const SEP = String.raw`(?:[ \t\u00a0\u202f]{0,3}(?:[.\-/][ \t\u00a0\u202f]{0,3}){0,2})`;

/**
 * A French number: ten digits, the first a 0 and the second 1-9 (01-05 landlines, 06/07 mobiles,
 * 08, 09; freephone numbers are written `0 800 800 838`), or the international forms `+33` / `0033` followed by the nine digits, optionally
 * with the trunk zero written as `(0)` or `0`. Digits may be grouped any way (`06 1234 5678`,
 * `06 12 345 678`). Prices never start with 0 and dates or postal codes have fewer than ten
 * digits, so they cannot match; the digit look-arounds stop it from biting into a longer number
 * (a SIRET `012 345 678 00012` is 14 digits, not a phone).
 */
const FRENCH_PHONE = String.raw`(?<![\d+])(?:(?:\+|\b00)[ \t\u00a0\u202f]?33[ \t\u00a0\u202f]?\)?${SEP}(?:\([ \t]?0[ \t]?\)${SEP}|0${SEP})?[1-9]|\(?0${SEP}[1-9]\)?)(?:${SEP}\d){8}(?!\d)`;

/**
 * A foreign number in international form (`+32 470 12 34 56`, `+41 22 123 45 67`): a plus sign,
 * a country code and eight to thirteen more digits. The plus sign makes it unambiguous; a price
 * like `+ 20 000 €` has a space after the sign and too few digits.
 */
const INTERNATIONAL_PHONE = String.raw`(?<![\d+])\+[1-9](?:${SEP}\d){8,13}(?!\d)`;

const PHONE = new RegExp(`${FRENCH_PHONE}|${INTERNATIONAL_PHONE}`, 'g');

/**
 * A French number with a digit missing or doubled, as typed in a hurry (`06.7.23.43.83`): five
 * groups with the same separator, 9 or 11 digits in all. Five separated groups starting with 0 are
 * what a phone looks like; dates have three groups and prices do not start with 0.
 */
const MISTYPED_PHONE = /(?<![\d+])0[1-9]([.\- ])\d{1,3}(?:\1\d{1,3}){3}(?!\d)/g;

/**
 * A ten-digit run right after `Réf`, `référence`, `mandat`, `SIRET`, `RCS`... is an identifier that
 * happens to look like a phone (`Réf. 0123456789`, `Référence annonce : 0123456789`), so it stays.
 * Tested on the text just before a candidate; a real phone after a reference (`Réf 123 - tél 06...`)
 * is not directly after the word.
 */
const IDENTIFIER_BEFORE =
  /(?:(?:\bref(?:erence)?s?|\bréf(?:érence)?s?)(?:\s+(?:de\s+l['’])?(?:annonce|bien|agence|interne|dossier|du\s+bien|mandat))?|\bmandat|\bsiret|\bsiren|\brcs(?:\s+[\p{L}-]+)?|\btva(?:\s+intracom(?:munautaire)?)?|\bdossier|\blot)\s*(?:n\s*[°o]\.?|num(?:éro|ero)?\.?)?\s*[.:#-]?\s*$/iu;
const IDENTIFIER_LOOKBACK = 40;

/** Top-level domains accepted after a spelled-out dot (`agence point fr`, `notaires .fr`). */
const TLD = String.raw`(?:fr|com|net|org|eu|info|immo|pro|be|ch|lu|re|gp|mq|gf|yt|nc|pf|io|biz|co|uk|de|es|it|paris|bzh|corsica)\b`;

/** One label of an address: letters (accents too), digits, `_ % + -`. */
const LABEL = String.raw`[\p{L}\p{N}_%+\-]+`;

/**
 * The dot between labels: a real dot followed by a label, or one spelled out to fool scrapers:
 * `(dot)`, `[point]`, ` dot `, ` point `, or a dot with spaces around it (`notaires .fr`). The
 * spelled and spaced forms must be followed by a top-level domain, so a sentence that ends after an
 * address (`... @agence.fr. Les visites`) does not lose its next word.
 */
const DOT = String.raw`(?:\.(?=[\p{L}\p{N}])|[ \t]{0,3}[\[({][ \t]{0,3}(?:dot|point)[ \t]{0,3}[\])}][ \t]{0,3}|[ \t]{1,3}(?:dot|point)[ \t]{1,3}(?=${TLD})|[ \t]{1,3}\.[ \t]{0,3}(?=${TLD})|\.[ \t]{1,3}(?=${TLD}))`;

/** A domain after the at-sign: labels joined by dots; a plain `@` needs at least one dot. */
const DOMAIN_DOTTED = new RegExp(String.raw`${LABEL}(?:${DOT}${LABEL})+`, 'yu');
const DOMAIN_ANY = new RegExp(String.raw`${LABEL}(?:${DOT}${LABEL})*`, 'yu');

/**
 * Spaces around the parts of an address are bounded ({0,3}): with `*` a pattern tried at every
 * position of a long run of spaces rescans the whole run each time (quadratic in the run's length).
 *
 * The at-sign, plain (`nom.prenom@agence-immo.fr`, `x @ y.fr`, but not a handle such as
 * `Instagram @agence.immo`, hence spaces on both sides or none) or hidden from scrapers: `[at]`,
 * `(at)`, `{at}`, `(arobase)`, `[arobase]`, ` arobase `; ` at ` only between brackets, a bare
 * English "at" being too common a word. After a hidden one the domain may lack a dot
 * (`contact (at) agence`): the intent is clear enough.
 *
 * Addresses are found from their at-sign outwards rather than with one pattern starting at the
 * local part: a pattern that starts with "any letters" is tried at every letter of a long
 * description, a real cost on every description holding an `@`; reading outwards from it is cheap.
 */
const AT_SIGN = /([ \t]@[ \t]|@)|[ \t]{0,3}[[({][ \t]{0,3}(?:at|arobase|@)[ \t]{0,3}[\])}][ \t]{0,3}|[ \t]{1,3}arobase[ \t]{1,3}/gi;
/** Characters of a local part, read backwards from the at-sign (`nom.prenom`, `accueil.27063`). */
const LOCAL_CHAR = /[\p{L}\p{N}_%+.-]/u;
const MAILTO = /mailto:$/i;
/**
 * Cheap pre-check: most descriptions hold no address, and a case-insensitive scan for the hidden
 * forms costs twice this case-spelled one (`at)`, `AT]`, `arobase`, `AROBASE`).
 */
const HIDDEN_AT_HINT = /[aA](?:[tT][ \t]{0,3}[\])}]|[rR][oO][bB][aA][sS][eE])/;

export function redactContacts(text: string): string {
  const withoutEmails = redactEmails(text);
  return withoutEmails.replace(PHONE, redactPhone).replace(MISTYPED_PHONE, redactMistypedPhone);
}

function redactEmails(text: string): string {
  if (!text.includes('@') && !HIDDEN_AT_HINT.test(text)) return text;
  AT_SIGN.lastIndex = 0;
  let match = AT_SIGN.exec(text);
  if (!match) return text;
  let out = '';
  let copiedUpTo = 0;
  while (match) {
    const atStart = match.index;
    const atEnd = atStart + match[0].length;
    let localStart = atStart;
    while (localStart > copiedUpTo && LOCAL_CHAR.test(text[localStart - 1])) localStart--;
    while (text[localStart] === '.' && localStart < atStart) localStart++;
    const domain = match[1] === undefined ? DOMAIN_ANY : DOMAIN_DOTTED;
    domain.lastIndex = atEnd;
    const domainMatch = localStart < atStart ? domain.exec(text) : null;
    if (domainMatch) {
      let start = localStart;
      if (MAILTO.test(text.slice(Math.max(copiedUpTo, start - 7), start))) start -= 7;
      out += text.slice(copiedUpTo, start) + REDACTION_MARKER;
      copiedUpTo = domain.lastIndex;
      AT_SIGN.lastIndex = copiedUpTo;
    } else if (AT_SIGN.lastIndex === atStart) {
      AT_SIGN.lastIndex++;
    }
    match = AT_SIGN.exec(text);
  }
  return out + text.slice(copiedUpTo);
}

function redactPhone(match: string, offset: number, whole: string): string {
  if (match.charCodeAt(0) !== 43 /* + */ && offset > 0) {
    const before = whole.slice(Math.max(0, offset - IDENTIFIER_LOOKBACK), offset);
    if (IDENTIFIER_BEFORE.test(before)) return match;
  }
  return REDACTION_MARKER;
}

function redactMistypedPhone(match: string, _separator: string, offset: number, whole: string): string {
  const digits = match.replace(/\D/g, '').length;
  if (digits !== 9 && digits !== 11) return match;
  return redactPhone(match, offset, whole);
}
