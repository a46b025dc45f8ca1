import { eq, sql } from 'drizzle-orm';
import type { settingKeys } from '@paydesk/contracts';
import type { DbOrTx } from '../../db/create-db';
import { settings } from '../../db/schema';

type SettingKey = (typeof settingKeys)[number];
const DEFAULTS: Record<SettingKey, 'true' | 'false'> = { 'settings.withdrawal.retry.auto.enable': 'false' };

export async function getSetting(db: DbOrTx, key: SettingKey): Promise<'true' | 'false'> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key));
  return row?.value === 'true' ? 'true' : row?.value === 'false' ? 'false' : DEFAULTS[key];
}

export async function setSetting(db: DbOrTx, key: SettingKey, value: 'true' | 'false') {
  await db
    .insert(settings)
    .values({ key, value })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: sql`now()` } });
}
