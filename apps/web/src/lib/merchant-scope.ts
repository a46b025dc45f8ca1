import { createStore } from './persisted-store';

/** The merchant last picked by a merchant.rw.all user, remembered across sessions. */
export const rememberedMerchantStore = createStore<string | null>(null, 'paydesk.merchantId');

/**
 * The merchant every back-office call is scoped to (?merchantId=). Null for users without merchant.rw.all:
 * the server then uses their own merchant.
 */
export const scopedMerchantStore = createStore<string | null>(null);

export const getScopedMerchantId = () => scopedMerchantStore.get();

/** Where a merchant.rw.all user's calls start: the remembered merchant if it still exists, else the first listed. */
export const pickMerchant = (list: readonly { id: string }[], remembered: string | null): string | null =>
  list.find((m) => m.id === remembered)?.id ?? list[0]?.id ?? null;
