import { z } from 'zod';
import { dataOf } from './common';

export const merchantSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  clientPublicKey: z.string().nullable(),
});
export type Merchant = z.infer<typeof merchantSchema>;
export const merchantResponse = dataOf(merchantSchema);

export const merchantListQuery = z
  .object({
    page: z.coerce.number().int().min(0).default(0),
    size: z.coerce.number().int().min(1).max(200).default(50),
  })
  .strict();
export const merchantListResponse = z.object({ data: z.array(merchantSchema), total: z.number().int() });
