/** GET /annonces parameters (SPEC.md). */
import { z } from 'zod';
import { SORTS } from '../../listings/query.js';
import { listingFilterParams } from '../shared/listing-filter.js';
import { cursor, integer, oneOf, pageSize } from '../shared/params.js';

export const SearchParams = z.object({
  ...listingFilterParams,
  /** Obsolete, without effect; still accepted (SPEC.md Versioning). */
  source: oneOf(['all', 'interne', 'scraped'], 'must be all, interne or scraped').optional(),
  sort: oneOf(SORTS, `must be one of ${SORTS.join(', ')}`).optional().transform((v) => v ?? 'recent'),
  page: integer(1, 1000).transform((v) => v ?? 1),
  page_size: pageSize(25),
  cursor,
  dedup: oneOf(['0', '1', 'false', 'true'], 'must be 0 or 1').optional(),
});
export type SearchParams = z.infer<typeof SearchParams>;
