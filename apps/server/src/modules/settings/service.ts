import { and, eq, sql } from 'drizzle-orm';
import type { settingKeys } from '@paydesk/contracts';
import type { DbOrTx } from '../../db/create-db';
import { merchantSettings } from '../../db/schema';
import type { AppContext } from '../../lib/context';
import { recordAudit, type AuditActor } from '../audit/service';

type SettingKey = (typeof settingKeys)[number];
type SettingValue = 'true' | 'false';
const DEFAULTS: Record<SettingKey, SettingValue> = { 'settings.withdrawal.retry.auto.enable': 'false' };

/** A merchant's setting (settings are per merchant), or its default. */
export async function getSetting(db: DbOrTx, merchantId: string, key: SettingKey): Promise<SettingValue> {
  const [row] = await db
    .select({ value: merchantSettings.value })
    .from(merchantSettings)
    .where(and(eq(merchantSettings.merchantId, merchantId), eq(merchantSettings.key, key)));
  return row?.value === 'true' ? 'true' : row?.value === 'false' ? 'false' : DEFAULTS[key];
}

export async function setSetting(
  ctx: AppContext,
  actor: AuditActor,
  merchantId: string,
  key: SettingKey,
  value: SettingValue,
) {
  await ctx.db.transaction(async (tx) => {
    const before = await getSetting(tx, merchantId, key);
    const now = ctx.now();
    await tx
      .insert(merchantSettings)
      .values({ merchantId, key, value, updatedAt: now })
      .onConflictDoUpdate({
        target: [merchantSettings.merchantId, merchantSettings.key],
        set: { value, updatedAt: sql`excluded.updated_at` },
      });
    if (before !== value) {
      await recordAudit(
        tx,
        actor,
        {
          action: 'settings.changed',
          merchantId,
          targetType: 'setting',
          targetId: key,
          before: { value: before },
          after: { value },
        },
        now,
      );
    }
  });
}
