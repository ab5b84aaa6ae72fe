/** GET /annonces/feed parameters: the cursor, page_size (default 100, docs/architecture.md) and the /annonces filters. */
import { z } from 'zod';
import { boundsInOrder, listingFilterParams } from '../shared/listing-filter.js';
import { cursor, pageSize } from '../shared/params.js';

export const FeedParams = z.object({ ...listingFilterParams, cursor, page_size: pageSize(100) }).superRefine(boundsInOrder);
export type FeedParams = z.infer<typeof FeedParams>;
