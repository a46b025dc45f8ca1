import { z } from 'zod';
import { dataOf } from './common';
import { dbIdParam } from './references';

/** A provider account's health: requisites given vs paid over the last day, and whether routing skips it. */
export const accountHealthItem = z.object({
  accountId: z.int(),
  provider: z.string(),
  paymentMethod: z.string(),
  isSandbox: z.boolean(),
  enabled: z.boolean(),
  /** deposits given its requisites in the last 24 h, and how many of them were paid */
  given: z.int(),
  paid: z.int(),
  /** paid / given in percent, one decimal; null when none was given */
  successRate: z.number().nullable(),
  /** when a provider last reported money on it */
  lastMoneyAt: z.iso.datetime().nullable(),
  /** out of routing since, why and by whom ('health check' when it paused itself) */
  pausedAt: z.iso.datetime().nullable(),
  pausedReason: z.string().nullable(),
  pausedBy: z.string().nullable(),
});
export type AccountHealth = z.infer<typeof accountHealthItem>;
export const accountHealthResponse = dataOf(z.array(accountHealthItem));

export const accountPauseParams = z.object({ id: dbIdParam('Account id must be a positive integer') }).strict();
export const accountPauseBody = z
  .object({
    reason: z
      .string({ error: 'Give a reason' })
      .trim()
      .min(3, { error: 'Give a reason (at least 3 characters)' })
      .max(500, { error: 'At most 500 characters' }),
  })
  .strict();
export const accountPauseResponse = dataOf(accountHealthItem);
