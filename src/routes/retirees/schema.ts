import { z } from 'zod';
import { cursor, pageSize, siteFilterParams } from '../shared/params.js';

export const WithdrawnParams = z.object({ page_size: pageSize(25), cursor, ...siteFilterParams });
export type WithdrawnParams = z.infer<typeof WithdrawnParams>;
