import { z } from 'zod';
import { Annonce } from '../../../core/model/annonce.js';
import { flowBatch } from '../shared/responses.js';
import { cursor, pageSize, siteFilterParams } from '../shared/params.js';

export const WithdrawnParams = z.object({ page_size: pageSize(25), cursor, ...siteFilterParams });
export type WithdrawnParams = z.infer<typeof WithdrawnParams>;

export const WithdrawnAnnonce = Annonce.extend({
  withdrawn_at: z.string().nullable().describe('Collection time of the pass that saw the listing leave (ISO 8601, UTC). Null when the store has no such time.'),
  reason: z
    .enum(['retiree', 'vendue', 'sous_compromis', 'archivee', 'absent'])
    .describe(
      "Why it left: withdrawn by its site (`retiree`), sold (`vendue`), under offer (`sous_compromis`), archived (`archivee`), or no longer listed by its site (`absent`: missing from its site's complete listings several nights running, without the site saying why).",
    ),
});

export const WithdrawnBatch = flowBatch(WithdrawnAnnonce);
