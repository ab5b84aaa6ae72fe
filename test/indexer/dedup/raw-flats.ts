/**
 * Raw collector records of one flat as several sites write it (rounded surface, price moved a few %,
 * text rewritten, photos or description missing on some), and of its neighbour in the same building:
 * the inputs of the stage and HTTP deduplication tests.
 */
export const FLAT_TEXT =
  "Au cœur de Lyon, appartement de 3 pièces de 65,4 m² situé au 2e étage d'un immeuble ancien. " +
  "Il se compose d'une entrée, d'un séjour lumineux, d'une cuisine équipée, de 2 chambres et d'une salle de bains. " +
  'Les plus : balcon filant, parquet ancien et cave. Proche commerces et métro.';

const REWRITTEN =
  "NOUVEAU Au cœur de Lyon, appartement de 3 pièces de 65,4 m² situé au 2e étage d'un immeuble ancien. " +
  'Atouts : balcon filant, parquet ancien et cave. À proximité des commerces et métro. ' +
  'Vous y trouverez une entrée, un séjour lumineux, une cuisine équipée, 2 chambres et une salle de bains.';

export type Raw = Record<string, unknown>;

export function flat(source: string, reference: string, overrides: Raw = {}): Raw {
  return {
    source,
    reference,
    url: `https://www.${source}.example/annonce/${reference}`,
    collected_at: '2026-11-01T10:00:00Z',
    title: 'Appartement 3 pièces 65 m² Lyon 3e',
    description: FLAT_TEXT,
    type: 'appartement',
    transaction: 'vente',
    price: '320 000 €',
    surface: '65,4 m²',
    rooms: 3,
    bedrooms: 2,
    city: 'Lyon',
    postal_code: '69003',
    latitude: 45.7512,
    longitude: 4.8683,
    dpe: 'D',
    ges: 'C',
    dpe_value: 212,
    ges_value: 24,
    year_built: 1930,
    images: [`https://img.${source}.example/${reference}-1.jpg`, `https://img.${source}.example/${reference}-2.jpg`],
    seller_type: 'agence',
    seller_name: 'Agence du Parc',
    ...overrides,
  };
}

/** The same flat on leboncoin: price +2 %, surface in whole metres, text rewritten, another agency. */
export const onLeboncoin = (overrides: Raw = {}) =>
  flat('leboncoin', 'LBC-1', {
    price: '326 400 €',
    surface: '65 m²',
    description: REWRITTEN,
    seller_name: 'Century 21 Lyon Est',
    dpe_value: null,
    ges_value: null,
    ...overrides,
  });
/** On seloger without description nor photos nor bedrooms: completed from the others. */
export const onSeloger = (overrides: Raw = {}) => flat('seloger', 'SL-1', { description: null, images: [], bedrooms: null, ...overrides });
/** On pap, the description cut after 150 characters, no energy values. */
export const onPap = (overrides: Raw = {}) =>
  flat('pap', 'PAP-1', { description: `${FLAT_TEXT.slice(0, 150)}…`, dpe_value: null, ges_value: null, price: '316 000 €', ...overrides });

/** The flat two floors up: same building, type, surface and rooms, its own price, text and energy figures. */
export const neighbour = (source: string, reference: string, overrides: Raw = {}) =>
  flat(source, reference, {
    price: '395 000 €',
    dpe: 'C',
    ges: 'B',
    dpe_value: 160,
    ges_value: 9,
    year_built: 1930,
    description:
      "Au cœur de Lyon, appartement de 3 pièces de 65,4 m² situé au 4e étage avec ascenseur d'un immeuble ancien. " +
      "Il comprend une entrée, un salon, une cuisine américaine, 2 chambres et une salle d'eau. Vue dégagée, double vitrage.",
    ...overrides,
  });
