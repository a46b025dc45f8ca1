import { useCurrencies } from '../../../lib/references';
import { formatMoneyEn } from '../../../lib/format';

/** Minor units of a currency code as an operator reads them: "1,250,000.00 UZS". */
export function useMoney() {
  const currencies = useCurrencies();
  return (minor: number | bigint, code: string) => {
    const dimension = currencies.data?.find((c) => c.code === code)?.dimension ?? 2;
    return formatMoneyEn(minor, dimension, code);
  };
}
