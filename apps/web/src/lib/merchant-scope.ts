import { createStore } from './persisted-store';

/** The merchant last picked by a merchant.rw.all user, remembered across sessions (SPEC §2). */
export const rememberedMerchantStore = createStore<string | null>(null, 'paydesk.merchantId');

/**
 * The merchant every back-office call is scoped to (?merchantId=). Null for users without merchant.rw.all:
 * the server then uses their own merchant.
 */
export const scopedMerchantStore = createStore<string | null>(null);

export const getScopedMerchantId = () => scopedMerchantStore.get();
