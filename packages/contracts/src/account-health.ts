import { z } from 'zod';
import { dataOf } from './common';
import { dbIdParam } from './references';

/** A provider account's health: requisites given vs paid over the last day, and whether routing skips it. */
const accountHealthItem = z.object({
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

/**
 * When the health check pauses an account by itself: none of the last `pauseAfter` deposits given its requisites was
 * paid, each given at least `windowMinutes` ago. `pauseAfter` 0 turns automatic pausing off. A platform setting.
 */
export const accountPauseRule = z.object({
  pauseAfter: z
    .int({ error: 'Enter a whole number of deposits' })
    .min(0, { error: 'At least 0 (0 turns automatic pausing off)' })
    .max(1000, { error: 'At most 1000 deposits' }),
  windowMinutes: z
    .int({ error: 'Enter a whole number of minutes' })
    .min(1, { error: 'At least 1 minute' })
    .max(10_080, { error: 'At most 10,080 minutes (a week)' }),
});
export type AccountPauseRule = z.infer<typeof accountPauseRule>;
export const accountPauseRuleResponse = dataOf(
  accountPauseRule.extend({
    /** when and by whom it was last changed; null while the installation's default applies */
    updatedAt: z.iso.datetime().nullable(),
    updatedBy: z.string().nullable(),
  }),
);
export const accountPauseRuleBody = accountPauseRule.extend({ reason: accountPauseBody.shape.reason }).strict();
export type AccountPauseRuleBody = z.infer<typeof accountPauseRuleBody>;
