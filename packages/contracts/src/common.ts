import { z } from 'zod';

/** `{ data: T }` envelope used by most responses. */
export const dataOf = <T extends z.ZodType>(schema: T) => z.object({ data: schema });

export const uuidParam = z.object({ id: z.uuid() }).strict();

/** Back-office calls may name a merchant; only merchant.rw.all may use it (docs/architecture.md, "Who is who"). */
export const merchantScopeQuery = z.object({ merchantId: z.uuid().optional() });

export const settingKeys = ['settings.withdrawal.retry.auto.enable'] as const;
export const settingParams = z.object({ setting: z.enum(settingKeys) }).strict();
export const settingBody = z.object({ value: z.enum(['true', 'false']) }).strict();
export const settingResponse = dataOf(z.object({ value: z.enum(['true', 'false']) }));

/** A strict staff query that may also carry the merchantId of merchantScopeQuery. */
export const scopedQuery = <T extends z.ZodRawShape>(shape: T) =>
  z.object({ ...shape, merchantId: z.uuid().optional() }).strict();

export { isUuid } from './uuid';
