/**
 * Normalisation of one raw collector record (indexer/raw-record.ts) into the public content of a
 * stored listing (src/core/model/stored.ts ListingContent), as docs/indexer.md describes it, privacy
 * included. Pure: no I/O, no clock; the commune table and the site list come in through the
 * context. It runs on tens of millions of records a day, so every pattern is compiled once, at
 * the top of its module.
 *
 * Messy input is expected and repaired (numbers with spaces and units, French type synonyms, DPE in
 * prose, dates in several formats, HTML descriptions, location to complete from the commune
 * table). A record that cannot be used at all throws NormaliseError naming the field, and the
 * caller writes it to the rejects file.
 *
 * This module assembles the record; each kind of value is read in its own module under
 * normalise/: text, numbers, dates, the field reader, property type and transaction, energy
 * classes, place, and links (title, images, URLs, legal information).
 */
import type { CommuneTable } from '../src/core/refdata/communes.js';
import type { ListingStatus } from '../src/core/model/annonce.js';
import type { ListingContent } from '../src/core/model/stored.js';
import type { RawRecord } from './raw-record.js';
import { redactContacts } from './redact.js';
import { clip, cleanDescription, cleanText, isAbsent, redactOrNull, textOf } from './normalise/text.js';
import { MAX_LAND_SURFACE, MAX_SURFACE, parseBoolean, priceLabel } from './normalise/numbers.js';
import { DAY_MS, parseDate } from './normalise/dates.js';
import { FieldReader } from './normalise/field-reader.js';
import { classifyType, sellerTypeOf, statusOf, transactionOf } from './normalise/property.js';
import { DPE_VALUE_UNIT, GES_VALUE_UNIT, classesInProse, energyClass } from './normalise/energy.js';
import { resolvePlace } from './normalise/place.js';
import { HTTP_URL, generatedTitle, imagesOf, legalInfoOf, urlOf } from './normalise/links.js';

export interface NormaliseContext {
  communes: CommuneTable;
  /** Display name of a configured site (`sources` configuration); undefined for an unknown site. */
  siteName(source: string): string | undefined;
}

export interface NormalisedRecord {
  /** Every public Annonce field of ListingContent, in the documented order, null where unknown. */
  content: ListingContent;
  status: ListingStatus;
  /** Epoch ms of raw.collected_at. */
  collectedAt: number;
  /** Epoch ms of the publication on the source site, null when unknown. */
  publishedAt: number | null;
  /**
   * Fields the record gave a value for that did not fit (a surface written "1er étage", a bedroom
   * count in m²): stored as null and counted by the load report, so a collector whose columns
   * shifted shows up there instead of as wrong numbers.
   */
  nulled: string[];
}

export class NormaliseError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'NormaliseError';
  }
}

/** The source id of listings published by the service itself (`is_internal`). */
export const INTERNAL_SOURCE = 'interne';

export function normaliseRecord(raw: RawRecord, ctx: NormaliseContext): NormalisedRecord {
  if (raw.source !== INTERNAL_SOURCE && ctx.siteName(raw.source) === undefined) {
    // Site priority decides the reference listing of a duplicate group: a site missing from the
    // `sources` configuration cannot be ranked, so its records are rejected, not guessed.
    throw new NormaliseError('source', `unknown source "${raw.source}": not in the sources configuration`);
  }
  const externalUrl = raw.url.trim();
  if (!HTTP_URL.test(externalUrl)) throw new NormaliseError('url', `url is not an http(s) URL: "${clip(externalUrl)}"`);

  const collectedAt = parseDate(raw.collected_at);
  if (collectedAt === null) throw new NormaliseError('collected_at', `unparseable collected_at "${clip(raw.collected_at)}"`);
  const fields = new FieldReader();
  let publishedAt = fields.date('published_at', raw.published_at);
  // Sites put placeholders (1970-01-01) or typos in the future; neither is a publication date.
  if (publishedAt !== null && publishedAt > collectedAt + DAY_MS) publishedAt = null;

  // Only the identity, the URL and the collection time are required: a record without a title or
  // a type (SeLoger-like collectors give neither) is stored with a type read from wherever the
  // record names it and a title built from what is known.
  const rawTitle = cleanText(raw.title);
  const rawType = textOf(raw.type);
  const description = cleanDescription(raw.description);

  const roomsField = fields.count('rooms', raw.rooms, 1);
  const typeInfo = classifyType({ type: rawType, title: rawTitle, category: textOf(raw.category), url: externalUrl, description }, roomsField === null);
  const transaction = transactionOf(raw, rawTitle);

  const price = fields.price('price', raw.price);
  const surface = fields.surface('surface', raw.surface, MAX_SURFACE);
  const rooms = roomsField ?? typeInfo.rooms;

  const place = resolvePlace(raw, ctx.communes);
  const dpe = energyClass(raw.dpe, raw.dpe_value, DPE_VALUE_UNIT);
  const ges = energyClass(raw.ges, raw.ges_value, GES_VALUE_UNIT);

  if (description !== null) {
    // Many sites only state the classes in the text ("Classe énergie : D - Classe climat : B").
    const wantDpe = dpe.letter === null && isAbsent(raw.dpe);
    const wantGes = ges.letter === null && isAbsent(raw.ges);
    if (wantDpe || wantGes) {
      const inProse = classesInProse(description);
      if (wantDpe) dpe.letter = inProse.dpe;
      if (wantGes) ges.letter = inProse.ges;
    }
  }

  const title = rawTitle !== null ? redactContacts(rawTitle) : generatedTitle(typeInfo.type, rooms, surface, place.city);

  const sellerType = sellerTypeOf(raw);
  const images = imagesOf(raw.images);

  const content: ListingContent = {
    source: raw.source,
    reference: raw.reference,
    title,
    type: typeInfo.type,
    transaction_type: transaction,
    price,
    price_per_m2: price !== null && surface !== null ? Math.round(price / surface) : null,
    // No colour rule is defined anywhere (the API gives only the type), so none is invented.
    price_per_m2_color: null,
    price_label: price === null ? null : priceLabel(price, transaction),
    surface,
    land_surface: fields.surface('land_surface', raw.land_surface, MAX_LAND_SURFACE),
    living_room_surface: fields.surface('living_room_surface', raw.living_room_surface, MAX_SURFACE),
    rooms,
    bedrooms: fields.count('bedrooms', raw.bedrooms, 0),
    bathrooms: fields.count('bathrooms', raw.bathrooms, 0),
    shower_rooms: fields.count('shower_rooms', raw.shower_rooms, 0),
    toilets: fields.count('toilets', raw.toilets, 0),
    kitchen: textOf(raw.kitchen),
    year_built: fields.year('year_built', raw.year_built),
    elevator: parseBoolean(raw.elevator),
    parking: parseBoolean(raw.parking),
    parking_interior: parseBoolean(raw.parking_interior),
    parking_exterior: parseBoolean(raw.parking_exterior),
    cellar: parseBoolean(raw.cellar),
    garden: parseBoolean(raw.garden),
    exclusive: parseBoolean(raw.exclusive),
    seller_type: sellerType,
    seller_name: sellerType === 'Pro' ? redactOrNull(textOf(raw.seller_name)) : null,
    real_estate_network: redactOrNull(textOf(raw.real_estate_network)),
    city: place.city,
    postal_code: place.postalCode,
    department: place.department,
    region: place.region,
    latitude: place.latitude,
    longitude: place.longitude,
    dpe: dpe.letter,
    ges: ges.letter,
    dpe_value: dpe.value,
    ges_value: ges.value,
    dpe_chart_url: urlOf(raw.dpe_chart_url),
    ges_chart_url: urlOf(raw.ges_chart_url),
    legal_info: legalInfoOf(raw.legal_info),
    images,
    images_count: images.length,
    description,
    external_url: externalUrl,
    video_url: urlOf(raw.video_url),
    virtual_tour_url: urlOf(raw.virtual_tour_url),
    published_at: publishedAt === null ? null : new Date(publishedAt).toISOString(),
    updated_at: new Date(collectedAt).toISOString(),
    is_internal: raw.source === INTERNAL_SOURCE || parseBoolean(raw.is_internal) === true,
  };
  return { content, status: statusOf(raw.status), collectedAt, publishedAt, nulled: fields.nulled };
}
