/**
 * The `/annonces` filter parameters, shared by search, map and feed, and their translation to the
 * engine-neutral ListingFilter. Contradictory bounds (a min above its max) are a schema rule, answered 422.
 */
import { z } from 'zod';
import { foldText, queryWords } from '../../../core/refdata/text.js';
import type { ListingFilter } from '../../../core/query/query.js';
import { TRANSACTION_TYPES } from '../../../core/model/annonce.js';
import { contradiction } from '../../http/middleware/validate.js';
import { areaOf, type AreaParams } from './area-params.js';
import { commaList, decimal, integer, isoDateTime, letterList, oneOf, siteFilterParams, text } from './params.js';

export const listingFilterParams = {
  q: text(120),
  type: text(40),
  transaction: oneOf(TRANSACTION_TYPES, 'must be vente or location').optional(),
  ville: commaList(120, 8),
  cp: text(16),
  dept: text(3),
  region: text(64),
  prix_min: integer(0, 1e12),
  prix_max: integer(0, 1e12),
  prix_m2_min: integer(0, 1e9),
  prix_m2_max: integer(0, 1e9),
  surface_min: decimal(0, 1e7),
  surface_max: decimal(0, 1e7),
  pieces_min: integer(0, 1000),
  chambres_min: integer(0, 1000),
  annee_min: integer(1700, 2100),
  annee_max: integer(1700, 2100),
  dpe: letterList,
  ges: letterList,
  updated_since: isoDateTime,
  created_since: isoDateTime,
  relistee: oneOf(['true', 'false', '1', '0'], 'must be true or false').optional(),
  ...siteFilterParams,
};

const FilterObject = z.object(listingFilterParams);
export type ListingFilterParams = z.infer<typeof FilterObject>;

const BOUNDS: [keyof ListingFilterParams, keyof ListingFilterParams][] = [
  ['prix_min', 'prix_max'],
  ['prix_m2_min', 'prix_m2_max'],
  ['surface_min', 'surface_max'],
  ['annee_min', 'annee_max'],
];

/**
 * Refinement of every schema with the filter parameters: a min above its max is a contradiction
 * (docs/architecture.md: contradictory but well-typed input is not clamped), one issue per pair.
 */
export function boundsInOrder(params: ListingFilterParams, ctx: z.core.$RefinementCtx): void {
  for (const [min, max] of BOUNDS) {
    const low = params[min];
    const high = params[max];
    if (typeof low === 'number' && typeof high === 'number' && low > high) contradiction(ctx, min, `${min} (${low}) is above ${max} (${high})`);
  }
}

/** The engine-neutral filter; the area parameters are those of the routes that take them. */
export function toListingFilter(params: ListingFilterParams & AreaParams): ListingFilter {
  const words = params.q ? queryWords(params.q) : [];
  return {
    words: words.length ? words : undefined,
    types: params.type ? params.type.split(',').map(foldText).filter(Boolean) : undefined,
    transaction: params.transaction,
    cities: params.ville?.map(foldText),
    postalCode: params.cp,
    department: params.dept?.toUpperCase(),
    region: params.region ? foldText(params.region) : undefined,
    priceMin: params.prix_min,
    priceMax: params.prix_max,
    pricePerM2Min: params.prix_m2_min,
    pricePerM2Max: params.prix_m2_max,
    surfaceMin: params.surface_min,
    surfaceMax: params.surface_max,
    roomsMin: params.pieces_min,
    bedroomsMin: params.chambres_min,
    yearMin: params.annee_min,
    yearMax: params.annee_max,
    dpe: params.dpe,
    ges: params.ges,
    updatedSince: params.updated_since,
    createdSince: params.created_since,
    relisted: params.relistee === undefined ? undefined : params.relistee === 'true' || params.relistee === '1',
    area: areaOf(params),
  };
}
