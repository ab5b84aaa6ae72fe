/**
 * What is sold and how: the property type (and rooms from `T3`-style shorthands), the transaction,
 * the listing status and the seller type.
 */
import { foldText } from '../../src/core/refdata/text.js';
import type { ListingStatus, PropertyType, TransactionType } from '../../src/core/model/annonce.js';
import type { RawRecord } from '../raw-record.js';
import { textOf } from './text.js';
import { MAX_LABEL_LENGTH } from './numbers.js';

/**
 * Property type words (text folded: lower case, no accents), one capture group per public type.
 * The leftmost word wins, so "Maison avec garage" is a Maison and "Garage" alone a Parking.
 * Bureau comes before Local commercial so that "local professionnel" is an office.
 */
const TYPE_WORDS = new RegExp(
  String.raw`\b(?:` +
    [
      /* 1 Appartement */ String.raw`(appartements?|appart|appt|apt|apartment|flat|studios?|studette|duplex|triplex|loft|penthouse|[tf]\d{1,2}(?:bis)?)`,
      /* 2 Maison */ String.raw`(maisons?|villas?|maison de ville|pavillons?|longere|mas|chalets?|fermes?|corps de ferme|chateaux?|castle|manoir|proprietes?|bastide|house|demeure|moulin|bergerie|hotel particulier)`,
      /* 3 Terrain */ String.raw`(terrains?|land|parcelle)`,
      /* 4 Parking */ String.raw`(parkings?|garages?|box|boxes|stationnement)`,
      /* 5 Bureau */ String.raw`(bureaux?|local professionnel|locaux professionnels)`,
      /* 6 Local commercial */ String.raw`(local commercial|locaux commerciaux|commerces?|boutiques?|fonds de commerce|murs commerciaux|local|locaux)`,
      /* 7 Immeuble */ String.raw`(immeubles?|building)`,
    ].join('|') +
    String.raw`)\b`,
);
const TYPE_BY_GROUP: PropertyType[] = ['Autre', 'Appartement', 'Maison', 'Terrain', 'Parking', 'Bureau', 'Local commercial', 'Immeuble'];
/** `T3`, `F4`, `T2 bis`: the French shorthand for the number of rooms. */
const ROOMS_SHORTHAND = /\b[tf](\d{1,2})(?: ?bis)?\b/;
const ROOMS_IN_WORDS = /\b(\d{1,2}) ?pieces?\b/;
const STUDIO = /\b(?:studio|studette)\b/;

interface TypeInfo {
  type: PropertyType;
  rooms: number | null;
}

/** Where a record may name its type, most explicit first. */
interface TypeSources {
  type: string | null;
  title: string | null;
  /** The site's category ("Ventes immobilières > Appartement"), when the collector keeps it. */
  category: string | null;
  url: string;
  description: string | null;
}

/**
 * The public type from the first of the type field, the title, the site category, the URL path
 * (`/annonces/achat/appartement/toulon-83/...`) and the description's opening words that names
 * one, else `Autre`; rooms from `T3`, `studio`, `3 pièces` in the type field or the title.
 */
export function classifyType(sources: TypeSources, wantRooms: boolean): TypeInfo {
  const fromType = sources.type === null ? NO_TYPE : typeOfField(sources.type);
  let type = fromType.type;
  let rooms = wantRooms ? fromType.rooms : null;
  if (type === null || (wantRooms && rooms === null)) {
    if (sources.title !== null) {
      const foldedTitle = foldText(sources.title.length > MAX_LABEL_LENGTH ? sources.title.slice(0, MAX_LABEL_LENGTH) : sources.title);
      type ??= typeIn(foldedTitle);
      if (wantRooms) rooms ??= roomsIn(foldedTitle);
    }
  }
  if (type === null && sources.category !== null) type = typeOfField(sources.category).type;
  if (type === null) type = typeInUrl(sources.url);
  if (type === null && sources.description !== null) {
    // Only the opening words: a description names its own property first, other places later
    // ("à deux pas de la maison de santé").
    type = typeIn(foldText(sources.description.slice(0, DESCRIPTION_TYPE_CHARS)));
  }
  return { type: type ?? 'Autre', rooms };
}

const DESCRIPTION_TYPE_CHARS = 80;
const URL_PATH = /^https?:\/\/[^/?#]+([^?#]*)/i;
const URL_PATH_SEPARATORS = /[-_/.+]+/g;

/** The type a URL path names (`/achat/appartement/...`, `/ventes-maison-...`): path only, not the host. */
function typeInUrl(url: string): PropertyType | null {
  const path = URL_PATH.exec(url)?.[1];
  if (!path) return null;
  return typeIn(foldText(path.slice(0, MAX_LABEL_LENGTH).replace(URL_PATH_SEPARATORS, ' ')));
}

const NO_TYPE = { type: null, rooms: null };
/** A site uses a handful of type values for millions of records: classified once each (bounded). */
const TYPE_CACHE_SIZE = 5_000;
const typeCache = new Map<string, { type: PropertyType | null; rooms: number | null }>();

function typeOfField(rawType: string): { type: PropertyType | null; rooms: number | null } {
  let known = typeCache.get(rawType);
  if (known === undefined) {
    const folded = foldText(rawType.length > MAX_LABEL_LENGTH ? rawType.slice(0, MAX_LABEL_LENGTH) : rawType);
    known = { type: typeIn(folded), rooms: roomsIn(folded) };
    if (typeCache.size >= TYPE_CACHE_SIZE) typeCache.clear();
    typeCache.set(rawType, known);
  }
  return known;
}

/** Whole type values some sites send as identifiers (Bien'ici `castle`, `premises`...). */
const TYPE_IDS: Record<string, PropertyType> = {
  office: 'Bureau',
  offices: 'Bureau',
  premises: 'Local commercial',
  shop: 'Local commercial',
  townhouse: 'Maison',
  programme: 'Autre',
  parking: 'Parking',
};

function typeIn(folded: string): PropertyType | null {
  const byId = TYPE_IDS[folded];
  if (byId !== undefined) return byId;
  const match = TYPE_WORDS.exec(folded);
  if (!match) return null;
  for (let group = 1; group < TYPE_BY_GROUP.length; group++) if (match[group] !== undefined) return TYPE_BY_GROUP[group];
  return null;
}

function roomsIn(folded: string): number | null {
  const shorthand = ROOMS_SHORTHAND.exec(folded) ?? ROOMS_IN_WORDS.exec(folded);
  if (shorthand) {
    const rooms = Number(shorthand[1]);
    return rooms >= 1 ? rooms : null;
  }
  return STUDIO.test(folded) ? 1 : null;
}

const RENTAL_WORDS = String.raw`location|locations|louer|loue|rent|rental|for rent|to let|lease|loyer|bail`;
const SALE_WORDS = String.raw`vente|ventes|vendre|vend|achat|acheter|sale|for sale|sell|buy|viager|cession`;
/** Leftmost transaction word of the (folded) transaction field: group 1 rental, group 2 sale. */
const TRANSACTION_WORDS = new RegExp(String.raw`\b(?:(${RENTAL_WORDS})|(${SALE_WORDS}))\b`);
/** Price text of a rent: `1 200 €/mois CC`, `850 € HC`, `loyer 700 €`, `£900 pcm`. */
const RENT_PRICE = /\/\s*mois|par mois|mensuel|\bcc\b|\bhc\b|charges? comprises?|hors charges|loyer|\/\s*month|per month|\bpcm\b/i;
/** Site URLs carry the transaction as a path segment: `/annonce-immo/vente/appartement/...`. */
const RENT_URL = /\/(?:location|locations|louer|a-louer|rent|rental|to-rent)(?:[/-]|$)/i;
const SALE_URL = /\/(?:vente|ventes|achat|acheter|a-vendre|sale|for-sale|buy)(?:[/-]|$)/i;
/** A title that opens with the transaction: "Location appartement...", "Achat :Maison...". */
const RENT_TITLE = /^(?:location|a louer|louer)\b/;
const SALE_TITLE = /^(?:vente|achat|a vendre)\b/;

/** The transaction field, else the price text, else the URL path, else the title's first word, else vente. */
export function transactionOf(raw: RawRecord, title: string | null): TransactionType {
  const field = textOf(raw.transaction);
  if (field !== null) {
    const match = TRANSACTION_WORDS.exec(foldText(field.slice(0, MAX_LABEL_LENGTH)));
    if (match) return match[1] !== undefined ? 'location' : 'vente';
  }
  if (typeof raw.price === 'string' && RENT_PRICE.test(raw.price.slice(0, MAX_LABEL_LENGTH))) return 'location';
  if (RENT_URL.test(raw.url)) return 'location';
  if (SALE_URL.test(raw.url)) return 'vente';
  if (title !== null) {
    const foldedTitle = foldText(title.slice(0, 20));
    if (RENT_TITLE.test(foldedTitle)) return 'location';
    if (SALE_TITLE.test(foldedTitle)) return 'vente';
  }
  return 'vente';
}

/** Status words (folded), in the order they are tried; unknown or absent is `active`. */
const STATUS_RULES: [RegExp, ListingStatus][] = [
  [/\b(?:sous compromis|compromis|sous offre|offre acceptee|under offer|under contract|sous_compromis)\b/, 'sous_compromis'],
  // A rented listing leaves the market like a sold one; the API has no separate state for it.
  [/\b(?:vendu|vendue|sold|loue|louee|rented|let agreed)\b/, 'vendue'],
  [/\b(?:archive|archivee|archived|expire|expiree|expired)\b/, 'archivee'],
  [/\b(?:retire|retiree|withdrawn|removed|supprime|supprimee|deleted|off market|desactive|desactivee|inactive)\b/, 'retiree'],
];

export function statusOf(value: unknown): ListingStatus {
  const text = textOf(value);
  if (text === null) return 'active';
  const folded = foldText(text.slice(0, MAX_LABEL_LENGTH));
  for (const [pattern, status] of STATUS_RULES) if (pattern.test(folded)) return status;
  return 'active';
}

const PRIVATE_SELLER = /\b(?:particulier|particuliers|private|owner|proprietaire|individual|pap)\b/;
const PRO_SELLER =
  /\b(?:pro|professionnel|professionnelle|professional|agence|agency|agent|notaire|notaires|notarial|mandataire|promoteur|constructeur|reseau|network)\b/;
/** Names that only a business carries, to class a seller whose type the site did not give. */
const AGENCY_NAME =
  /\b(?:agence|immobilier|immobiliere|immo|notaire|notaires|notarial|office|cabinet|sarl|sas|sasu|eurl|sci|groupe|transactions?|realty|properties|property|century 21|orpi|foncia|laforet|guy hoquet|era|iad|safti|capifrance|nestenn|stephane plaza|square habitat|citya|sotheby s|barnes|engel volkers)\b/;

/** `Pro` or `Particulier`; a seller without a type is a Pro when its name or network says so. */
export function sellerTypeOf(raw: RawRecord): 'Pro' | 'Particulier' | null {
  const field = textOf(raw.seller_type);
  if (field !== null) {
    const folded = foldText(field.slice(0, MAX_LABEL_LENGTH));
    if (PRIVATE_SELLER.test(folded)) return 'Particulier';
    if (PRO_SELLER.test(folded)) return 'Pro';
    return null;
  }
  if (textOf(raw.real_estate_network) !== null) return 'Pro';
  const name = textOf(raw.seller_name);
  return name !== null && AGENCY_NAME.test(foldText(name.slice(0, MAX_LABEL_LENGTH))) ? 'Pro' : null;
}
