/**
 * Every key of ListingFilter, for the golden tables of both engines to prove they use each one. Kept
 * as a record so the compiler fails when ListingFilter gains a key this list lacks.
 */
import type { ListingFilter } from '../../src/core/query/query.js';

const KEYS: Record<keyof ListingFilter, true> = {
  words: true,
  types: true,
  transaction: true,
  cities: true,
  postalCode: true,
  department: true,
  region: true,
  priceMin: true,
  priceMax: true,
  pricePerM2Min: true,
  pricePerM2Max: true,
  surfaceMin: true,
  surfaceMax: true,
  roomsMin: true,
  bedroomsMin: true,
  yearMin: true,
  yearMax: true,
  dpe: true,
  ges: true,
  updatedSince: true,
  createdSince: true,
  relisted: true,
  area: true,
};

export const LISTING_FILTER_KEYS = Object.keys(KEYS) as (keyof ListingFilter)[];
